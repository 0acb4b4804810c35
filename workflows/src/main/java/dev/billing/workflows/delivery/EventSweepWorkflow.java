package dev.billing.workflows.delivery;

import dev.billing.workflows.activities.EventSweepResult;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One sweep of the {@code EventsUndelivered} index, started every few minutes by the Temporal
 * Schedule {@code billing-event-sweep}: the path that delivers what a lost signal or a reset left
 * owed. Short-lived: one activity.
 */
@WorkflowInterface
public interface EventSweepWorkflow {
  String TYPE = "EventSweep";

  @WorkflowMethod(name = TYPE)
  EventSweepResult run(EventSweepRequest request);
}
