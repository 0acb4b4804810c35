package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The delivery workflow's steps, on the deliveries task queue ({@code TaskQueues.deliveries}). */
@ActivityInterface
public interface DeliveryActivities {

  /**
   * Reads the events and the endpoints: which endpoint each event is still owed to. An event owed
   * to none (no endpoint subscribes to its type) is taken off the undelivered index here. Adds the
   * subscription's earlier events still owed (their hand-off may have been lost), so that each
   * endpoint's queue holds them before the events asked: delivery in order per subscription.
   */
  @ActivityMethod(name = "PlanDeliveries")
  PlanDeliveriesResult plan(PlanDeliveriesInput input);

  /**
   * POSTs one event to one endpoint and records the attempt. Throws (retried with backoff) while
   * the endpoint fails; returns once it answered 2xx, refused the event for good (410), is gone, or
   * is disabled (then without a POST).
   */
  @ActivityMethod(name = "DeliverEvent")
  DeliverEventResult deliver(DeliverEventInput input);

  /** Records that a delivery was given up (its retries ran out) and ends it for that endpoint. */
  @ActivityMethod(name = "RecordDeliveryFailure")
  DeliveryFailureResult recordFailure(DeliveryFailureInput input);

  /** Takes an event off the undelivered index: every endpoint it was owed to has finished. */
  @ActivityMethod(name = "SettleEvent")
  SettleEventResult settle(SettleEventInput input);
}
