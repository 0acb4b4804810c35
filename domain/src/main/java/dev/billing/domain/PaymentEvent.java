package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * A gateway event about one charge, normalised from the provider's webhook (or replayed by the
 * poller) and signalled to the subscription's workflow. The workflow decides by its own state what
 * an event means, so duplicates and out-of-order deliveries (failed after succeeded) have no second
 * effect.
 *
 * @param eventId the provider's event id, unique per provider
 * @param idempotencyKey the key of the charge attempt the event is about (from the charge's
 *     metadata)
 * @param failureCode the provider's failure or return code; null on success
 */
public record PaymentEvent(
    String eventId,
    String provider,
    Type type,
    String subscriptionId,
    long cycle,
    String idempotencyKey,
    String transactionId,
    String failureCode,
    String failureMessage,
    Instant occurredAt) {

  public enum Type {
    /** The charge succeeded (for a bank debit: it settled). */
    CHARGE_SUCCEEDED,
    /** The charge failed (for a bank debit: before settling). */
    CHARGE_FAILED,
    /** A settled bank debit was returned: the money came back to the customer. */
    CHARGE_RETURNED,
    /** The charge was refunded, fully or in part. */
    CHARGE_REFUNDED
  }

  public PaymentEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(occurredAt, "occurredAt");
  }
}
