package dev.billing.store;

import java.util.Set;

/**
 * An event with what its delivery has done so far.
 *
 * @param finishedFor the endpoints whose delivery of it ended (delivered, or failed for good)
 */
public record EventDeliveryState(OutboxEvent event, Set<String> finishedFor) {
  public EventDeliveryState {
    finishedFor = Set.copyOf(finishedFor);
  }

  /** True while the sparse index still lists the event as owed to someone. */
  public boolean owed() {
    return event.undelivered() != null;
  }
}
