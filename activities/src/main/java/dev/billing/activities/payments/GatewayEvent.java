package dev.billing.activities.payments;

import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Something that happened to one of our charges, as the gateway reports it in its event log (and,
 * pushed, in webhooks). Listed by {@link PaymentGateway#listEvents} for the poller that catches
 * missed webhooks, so it carries everything a webhook does.
 *
 * @param id the gateway's event id: the same event listed twice has the same id, so receivers
 *     deduplicate on it
 * @param idempotencyKey the key of the charge attempt the event is about (from the charge's
 *     metadata)
 * @param transactionId the charge's {@link GatewayCharge#transactionId()}
 * @param amount the charge's amount; for REFUNDED, everything refunded of it so far (as Stripe's
 *     charge.refunded reports {@code amount_refunded}); for DISPUTED and DISPUTE_WON, the amount
 *     disputed
 * @param failureCode the decline, failure or return code (a lost dispute: {@code dispute_lost});
 *     for DISPUTED the dispute's reason; null for SUCCEEDED and REFUNDED
 * @param refunds for REFUNDED, the charge's refunds as the gateway lists them, with billing's key
 *     on those billing made; may be empty (the amount alone then tells)
 */
public record GatewayEvent(
    String id,
    Type type,
    Instant occurredAt,
    String idempotencyKey,
    String transactionId,
    String subscriptionId,
    long cycle,
    Money amount,
    String failureCode,
    String failureMessage,
    List<ChargeRefund> refunds) {

  /** Event types, with the names the sandbox webhook body uses. */
  public enum Type {
    SUCCEEDED("charge.succeeded"),
    FAILED("charge.failed"),
    /** Settled, then taken back: a bank debit returned, or a card dispute lost. */
    RETURNED("charge.returned"),
    REFUNDED("charge.refunded"),
    /** A card dispute opened: the money is held until it is decided. */
    DISPUTED("charge.dispute.created"),
    /** A card dispute decided for the merchant. */
    DISPUTE_WON("charge.dispute.won");

    private final String wireName;

    Type(String wireName) {
      this.wireName = wireName;
    }

    /** "charge.succeeded" and so on. */
    public String wireName() {
      return wireName;
    }

    /** The type of a wire name; throws IllegalArgumentException naming an unknown one. */
    public static Type ofWireName(String name) {
      for (Type t : values()) {
        if (t.wireName.equals(name)) {
          return t;
        }
      }
      throw new IllegalArgumentException("unknown event type: " + name);
    }
  }

  public GatewayEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(occurredAt, "occurredAt");
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(amount, "amount");
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
  }

  /** An event without a list of refunds. */
  public GatewayEvent(
      String id,
      Type type,
      Instant occurredAt,
      String idempotencyKey,
      String transactionId,
      String subscriptionId,
      long cycle,
      Money amount,
      String failureCode,
      String failureMessage) {
    this(
        id,
        type,
        occurredAt,
        idempotencyKey,
        transactionId,
        subscriptionId,
        cycle,
        amount,
        failureCode,
        failureMessage,
        null);
  }
}
