package dev.billing.workflows.delivery;

import dev.billing.workflows.activities.EventSweepActivities;
import dev.billing.workflows.activities.EventSweepInput;
import dev.billing.workflows.activities.EventSweepResult;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;

/** Reads the time, sweeps once. */
public class EventSweepWorkflowImpl implements EventSweepWorkflow {

  /**
   * Five minutes for up to a few thousand reads and signals; retried three times, then the run
   * fails and the next scheduled one sweeps the same events.
   */
  static final ActivityOptions SWEEP =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofMinutes(5))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setInitialInterval(Duration.ofSeconds(10))
                  .setMaximumAttempts(3)
                  .build())
          .build();

  private final EventSweepActivities sweep =
      Workflow.newActivityStub(EventSweepActivities.class, SWEEP);

  @Override
  public EventSweepResult run(EventSweepRequest request) {
    return sweep.sweep(
        new EventSweepInput(
            Instant.ofEpochMilli(Workflow.currentTimeMillis()),
            request.lookbackDays(),
            request.limit()));
  }
}
