package dev.billing.workflows.activities;

import java.util.List;

/**
 * @param redelivery plan every endpoint subscribed now, even those the event reached
 */
public record PlanDeliveriesInput(
    String subscriptionId, List<String> eventIds, boolean redelivery) {
  public PlanDeliveriesInput {
    eventIds = List.copyOf(eventIds);
  }
}
