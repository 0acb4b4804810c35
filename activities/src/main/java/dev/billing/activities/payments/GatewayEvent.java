package dev.billing.activities.payments;

import dev.billing.domain.Money;
import java.time.Instant;
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
 *     charge.refunded reports {@code amount_refunded})
 * @param failureCode the decline, failure or return code; null for SUCCEEDED and REFUNDED
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
    String failureMessage) {

  /** Event types, with the names the sandbox webhook body uses. */
  public enum Type {
    SUCCEEDED("charge.succeeded"),
    FAILED("charge.failed"),
    RETURNED("charge.returned"),
    REFUNDED("charge.refunded");

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
  }
}
