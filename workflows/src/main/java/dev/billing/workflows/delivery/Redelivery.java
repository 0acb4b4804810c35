package dev.billing.workflows.delivery;

import java.util.Objects;

/**
 * @param requestedBy the operator's actor name, for the attempts' record
 */
public record Redelivery(String eventId, String requestedBy) {
  public Redelivery {
    Objects.requireNonNull(eventId, "eventId");
  }
}
