package dev.billing.api.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiRequests;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.store.BillingStore;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowStub;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile requests ({@link Fuzzing}) at the application on the real stack, where an accepted one
 * reaches its workflow or starts a reconciliation: what the workflows answer (a refusal, a decline,
 * a request they cannot apply) must still come back as a problem, never a 5xx, and a refused
 * request must write nothing anywhere. Fewer requests than {@link HostileInputTest}, which covers
 * the HTTP layer; the seed differs, so the two runs send different requests.
 */
@Tag("e2e")
class HostileInputEndToEndTest {
  static final int TRIES = 250;
  private static ApiTestSupport api;

  @BeforeContainer
  static void start() throws Exception {
    api = ApiTestSupport.onSharedStack(Fuzzing.WEBHOOKS);
    // A rejected request must write nothing: what a class before this one set off on the shared
    // stack (a charge right after a create, a repaired workflow) has to have finished first.
    api.stack().awaitNoWrites(Duration.ofMillis(500));
    Fuzzing.start(
        new Fuzzing.Served() {
          @Override
          public ApiRequests api() {
            return api;
          }

          @Override
          public DropwizardAppExtension<ApiConfiguration> app() {
            return api.extension();
          }

          @Override
          public AtomicLong writes() {
            return api.stack().writes;
          }

          @Override
          public BillingStore store() {
            return api.stack().store;
          }

          @Override
          public void awaitAtRest(HttpResponse<String> response) throws Exception {
            awaitReconciliation(response);
            SubscriptionsAtRest.await(api.stack().env.getWorkflowClient(), response, Fuzzing.JSON);
            // 202 for a change: accepted and still running in its workflow.
            Fuzzing.settle(
                response.statusCode() == 202 ? Duration.ofMillis(300) : Duration.ofMillis(20));
          }
        },
        TRIES);
  }

  @AfterContainer
  static void stop() {
    Fuzzing.stop(200, 201, 400, 401, 404);
  }

  @Property(
      tries = TRIES,
      seed = "20261128",
      shrinking = ShrinkingMode.OFF,
      afterFailure = AfterFailureMode.PREVIOUS_SEED)
  void noInputCausesA5xxAWriteOrAnUnnamedError(@ForAll("requests") FuzzRequest request)
      throws Exception {
    Fuzzing.check(request);
  }

  @Provide
  Arbitrary<FuzzRequest> requests() {
    return Fuzzing.requests();
  }

  /**
   * A reconciliation the request started writes its report and repairs until its workflow ends,
   * with pauses longer than any quiet period while it reads: wait for the end itself. Polled,
   * because waiting for the result would let the test clock skip ahead and fire every
   * subscription's timers.
   */
  private static void awaitReconciliation(HttpResponse<String> response) throws Exception {
    if (!response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
      return;
    }
    JsonNode body = Fuzzing.JSON.readTree(response.body());
    if (body == null || !body.hasNonNull("workflowId") || !body.has("started")) {
      return;
    }
    WorkflowStub run =
        api.stack().env.getWorkflowClient().newUntypedWorkflowStub(body.get("workflowId").asText());
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (run.describe().getStatus()
        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      assertThat(System.nanoTime())
          .as("reconciliation %s still running", body)
          .isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
