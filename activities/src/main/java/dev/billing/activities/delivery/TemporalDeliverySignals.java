package dev.billing.activities.delivery;

import dev.billing.workflows.delivery.DeliveryStarts;
import io.temporal.client.WorkflowClient;
import java.util.List;
import java.util.Objects;

/** Signal-with-start of {@code deliveries-<subscription>} on the deliveries task queue. */
public final class TemporalDeliverySignals implements DeliverySignals {
  private final WorkflowClient client;
  private final String deliveriesQueue;

  public TemporalDeliverySignals(WorkflowClient client, String deliveriesQueue) {
    this.client = Objects.requireNonNull(client, "client");
    this.deliveriesQueue = Objects.requireNonNull(deliveriesQueue, "deliveriesQueue");
  }

  @Override
  public void eventsRecorded(String subscriptionId, List<String> eventIds) {
    DeliveryStarts.eventsRecorded(client, deliveriesQueue, subscriptionId, eventIds);
  }
}
