package dev.billing.api.events;

import dev.billing.workflows.delivery.DeliveryStarts;
import dev.billing.workflows.delivery.Redelivery;
import io.temporal.client.WorkflowClient;

/** Asks a subscription's delivery workflow to send one event again (signal-with-start). */
public interface Redeliveries {
  void redeliver(String subscriptionId, String eventId, String actor);

  /** On Temporal: the workflow of {@code deliveriesQueue} ({@code TaskQueues.deliveries}). */
  static Redeliveries of(WorkflowClient client, String deliveriesQueue) {
    return (subscriptionId, eventId, actor) ->
        DeliveryStarts.redeliver(
            client, deliveriesQueue, subscriptionId, new Redelivery(eventId, actor));
  }
}
