package dev.billing.workflows.delivery;

import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Delivers one subscription's merchant events to the webhook endpoints subscribed to them (ADR
 * 0012), id {@code deliveries-<subscription>} on {@code TaskQueues.deliveries}: one queue per
 * endpoint, each in the events' order, so an endpoint that fails holds up only itself. Started (or
 * signalled) with signal-with-start by the record activity once a change is committed, by the sweep
 * of the {@code EventsUndelivered} index, and by a redelivery request. Ends when every queue is
 * empty; the next signal starts a new run.
 */
@WorkflowInterface
public interface DeliveryWorkflow {

  String TYPE = "Deliveries";
  String ID_PREFIX = "deliveries-";

  static String workflowId(String subscriptionId) {
    return ID_PREFIX + subscriptionId;
  }

  @WorkflowMethod(name = TYPE)
  DeliveryResult run(DeliveryInput input);

  /** Events written by a committed change (or found owed by the sweep). Duplicates are ignored. */
  @SignalMethod(name = "eventsRecorded")
  void eventsRecorded(EventsRecorded events);

  /** Send one event again to every endpoint subscribed to its type, even those it reached. */
  @SignalMethod(name = "redeliver")
  void redeliver(Redelivery redelivery);
}
