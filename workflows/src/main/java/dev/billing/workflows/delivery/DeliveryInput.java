package dev.billing.workflows.delivery;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a run starts with: nothing on a first start (the signal that starts it brings the events),
 * the state carried over on continue-as-new.
 *
 * @param unplanned event ids received but not looked up yet
 * @param lanes each endpoint's queue, in order
 * @param recent ids whose delivery this workflow finished lately: a late duplicate signal of one is
 *     ignored without a read
 */
public record DeliveryInput(
    String subscriptionId, List<String> unplanned, List<Lane> lanes, List<String> recent) {

  public DeliveryInput {
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    unplanned = unplanned == null ? List.of() : List.copyOf(unplanned);
    lanes = lanes == null ? List.of() : List.copyOf(lanes);
    recent = recent == null ? List.of() : List.copyOf(recent);
  }

  public static DeliveryInput start(String subscriptionId) {
    return new DeliveryInput(subscriptionId, List.of(), List.of(), List.of());
  }

  /** One endpoint's queue. */
  public record Lane(String endpointId, List<QueuedEvent> events) {
    public Lane {
      Objects.requireNonNull(endpointId, "endpointId");
      events = List.copyOf(events);
    }
  }

  /**
   * @param createdAt the time of the event's change, from which its retry window runs; for a
   *     redelivery, the time it was asked for
   * @param redelivery sent again on request: it does not count towards the event's owed endpoints
   */
  public record QueuedEvent(
      String eventId, String eventType, Instant createdAt, boolean redelivery) {}
}
