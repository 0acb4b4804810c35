package dev.billing.worker.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.billing.workflows.UpdateRejections;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A refused update is one line from the interceptor, not the SDK's "Workflow execution failure"
 * stack trace; a workflow that really fails still gets the SDK's line. Real SDK and test server.
 */
class UpdateRefusalLoggingTest {

  @WorkflowInterface
  public interface Counter {
    @WorkflowMethod
    void run(boolean failAtOnce);

    @UpdateMethod
    int add(int amount);

    @UpdateValidatorMethod(updateName = "add")
    void checkAdd(int amount);
  }

  public static final class CounterImpl implements Counter {
    private int total;

    @Override
    public void run(boolean failAtOnce) {
      if (failAtOnce) {
        throw ApplicationFailure.newNonRetryableFailure("broken on purpose", "Broken");
      }
      Workflow.await(() -> false);
    }

    @Override
    public int add(int amount) {
      if (amount == 0) {
        throw ApplicationFailure.newNonRetryableFailure(
            "nothing to add", UpdateRejections.NO_SUCH_PERIOD);
      }
      if (amount == 13) {
        throw ApplicationFailure.newFailure("the gateway did not answer", "GatewayUnavailable");
      }
      total += amount;
      return total;
    }

    @Override
    public void checkAdd(int amount) {
      if (amount < 0) {
        throw ApplicationFailure.newNonRetryableFailure(
            "negative amounts are refused", UpdateRejections.TRANSITION_NOT_ALLOWED);
      }
    }
  }

  private TestWorkflowEnvironment env;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private Level rootLevel;

  @BeforeEach
  void start() {
    UpdateRefusalLogging.install();
    rootLevel = root.getLevel();
    root.setLevel(Level.INFO);
    logs.start();
    root.addAppender(logs);
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setWorkerFactoryOptions(
                    WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(
                            new ObservabilityInterceptor(
                                new BusinessMetrics(new SimpleMeterRegistry())))
                        .build())
                .build());
    env.newWorker("counters").registerWorkflowImplementationTypes(CounterImpl.class);
    env.start();
  }

  @AfterEach
  void stop() {
    env.close();
    root.detachAppender(logs);
    root.setLevel(rootLevel);
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getTurboFilterList()
        .removeIf(UpdateRefusalLogging.class::isInstance);
  }

  private Counter counter(String id) {
    return env.getWorkflowClient()
        .newWorkflowStub(
            Counter.class,
            WorkflowOptions.newBuilder().setWorkflowId(id).setTaskQueue("counters").build());
  }

  @Test
  void aRefusedUpdateIsOneLineAndNoSdkStackTrace() {
    Counter counter = counter("counter-1");
    WorkflowClient.start(counter::run, false);

    assertThatThrownBy(() -> counter.add(-1)).isInstanceOf(WorkflowUpdateException.class);
    assertThatThrownBy(() -> counter.add(0)).isInstanceOf(WorkflowUpdateException.class);
    assertThatThrownBy(() -> counter.add(13)).isInstanceOf(WorkflowUpdateException.class);
    assertThat(counter.add(2)).isEqualTo(2);

    List<ILoggingEvent> seen = captured();
    assertThat(seen)
        .filteredOn(e -> e.getLoggerName().equals(UpdateRefusalLogging.SDK_LOGGER))
        .isEmpty();
    assertThat(seen)
        .filteredOn(e -> e.getLoggerName().equals("dev.billing.updates"))
        .extracting(ILoggingEvent::getLevel, ILoggingEvent::getFormattedMessage)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Level.INFO,
                "update add refused: "
                    + UpdateRejections.TRANSITION_NOT_ALLOWED
                    + ": negative amounts are refused"),
            org.assertj.core.groups.Tuple.tuple(
                Level.INFO, "update add refused: NoSuchPeriod: nothing to add"),
            // Not a refusal the workflow means: a WARN, with the failure attached.
            org.assertj.core.groups.Tuple.tuple(Level.WARN, "update add failed"));
    assertThat(seen)
        .filteredOn(
            e -> e.getLevel() == Level.WARN && e.getLoggerName().equals("dev.billing.updates"))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getThrowableProxy().getMessage())
                    .contains("the gateway did not answer"));
  }

  @Test
  void aWorkflowThatFailsStillLogsTheSdksLine() {
    Counter counter = counter("counter-2");

    assertThatThrownBy(() -> counter.run(true)).isInstanceOf(WorkflowFailedException.class);

    assertThat(captured())
        .filteredOn(e -> e.getLoggerName().equals(UpdateRefusalLogging.SDK_LOGGER))
        .extracting(ILoggingEvent::getFormattedMessage)
        .singleElement()
        .asString()
        .startsWith("Workflow execution failure WorkflowId='counter-2'");
  }

  private List<ILoggingEvent> captured() {
    synchronized (logs) { // worker threads may still be appending; doAppend holds this lock
      return List.copyOf(logs.list);
    }
  }
}
