package dev.billing.domain;

import java.time.Instant;
import java.util.List;
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
 * @param amount for CHARGE_REFUNDED everything refunded of the charge so far (Stripe's {@code
 *     amount_refunded}, which a redelivery repeats and a later refund raises); for a dispute the
 *     amount disputed; null otherwise or when the reader does not tell
 * @param refunds for CHARGE_REFUNDED the charge's refunds as the reader found them, each with the
 *     gateway's id; empty when it found none listed (the total alone then tells the workflow)
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
    Instant occurredAt,
    Money amount,
    List<ChargeRefund> refunds) {

  public enum Type {
    /** The charge succeeded (for a bank debit: it settled). */
    CHARGE_SUCCEEDED,
    /** The charge failed (for a bank debit: before settling). */
    CHARGE_FAILED,
    /** A settled bank debit was returned: the money came back to the customer. */
    CHARGE_RETURNED,
    /** The charge was refunded, fully or in part, by billing or at the gateway. */
    CHARGE_REFUNDED,
    /**
     * A card payment was disputed (a chargeback): the money is held until the dispute is decided. A
     * lost dispute arrives as CHARGE_RETURNED, a returned bank debit being a dispute too.
     */
    CHARGE_DISPUTED,
    /** A dispute was decided for the merchant: the charge is collected again. */
    DISPUTE_WON
  }

  public PaymentEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(occurredAt, "occurredAt");
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
  }

  /** An event that carries no amount: a success, failure or return. */
  public PaymentEvent(
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
    this(
        eventId,
        provider,
        type,
        subscriptionId,
        cycle,
        idempotencyKey,
        transactionId,
        failureCode,
        failureMessage,
        occurredAt,
        null,
        null);
  }
}
