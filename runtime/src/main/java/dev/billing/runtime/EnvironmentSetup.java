package dev.billing.runtime;

import dev.billing.store.BillingTables;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * What a fresh environment needs before the worker and the API start: the DynamoDB tables and the
 * namespace's search attributes. Idempotent, and patient: in docker-compose it starts alongside
 * DynamoDB Local and a Temporal server that takes a while to come up, so it retries until they
 * answer or the deadline passes.
 */
public final class EnvironmentSetup {
  private static final Logger LOG = LoggerFactory.getLogger(EnvironmentSetup.class);
  private static final Duration PAUSE = Duration.ofSeconds(2);

  private EnvironmentSetup() {}

  public record Result(List<String> tables, List<String> searchAttributesAdded) {}

  public static Result run(
      DynamoConnection dynamo, TemporalConnection temporal, Duration patience) {
    long deadline = System.nanoTime() + patience.toNanos();
    var names = dynamo.tableNames();
    untilReachable(
        "DynamoDB at " + dynamo.settings().endpoint(),
        deadline,
        () -> {
          BillingTables.createIfMissing(dynamo.client(), names);
          return null;
        });
    List<String> tables = List.of(names.billing(), names.history(), names.paymentEvents());
    LOG.info("DynamoDB tables ready: {}", tables);
    List<String> added =
        untilReachable(
            "Temporal at " + temporal.settings().target(),
            deadline,
            () -> SearchAttributeSetup.register(temporal.stubs(), temporal.settings().namespace()));
    LOG.info(
        "Search attributes in namespace {}: added {}, the others existed",
        temporal.settings().namespace(),
        added);
    return new Result(tables, added);
  }

  private static <T> T untilReachable(String what, long deadline, Supplier<T> step) {
    while (true) {
      try {
        return step.get();
      } catch (SdkClientException | StatusRuntimeException e) {
        boolean transientFailure =
            !(e instanceof StatusRuntimeException grpc)
                || grpc.getStatus().getCode() == Status.Code.UNAVAILABLE
                || grpc.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED
                // A new server's namespace is registered a moment after its frontend answers.
                || grpc.getStatus().getCode() == Status.Code.NOT_FOUND;
        if (!transientFailure || System.nanoTime() > deadline) {
          throw e;
        }
        LOG.info("Waiting for {}: {}", what, e.getMessage());
        try {
          Thread.sleep(PAUSE.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
