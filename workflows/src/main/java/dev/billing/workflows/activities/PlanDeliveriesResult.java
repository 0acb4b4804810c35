package dev.billing.workflows.activities;

import java.time.Instant;
import java.util.List;

/**
 * @param events the events found, in the order asked; an unknown id is left out. Unless the plan is
 *     a redelivery, preceded by the subscription's earlier events still owed that were not asked
 *     for, oldest first: they go to each endpoint before the events asked
 */
public record PlanDeliveriesResult(List<PlannedEvent> events) {
  public PlanDeliveriesResult {
    events = List.copyOf(events);
  }

  /**
   * @param createdAt the time of its change: the retry window runs from it
   * @param endpointIds the endpoints still owed it; empty when none is (already settled)
   */
  public record PlannedEvent(
      String eventId, String eventType, Instant createdAt, List<String> endpointIds) {
    public PlannedEvent {
      endpointIds = List.copyOf(endpointIds);
    }
  }
}
