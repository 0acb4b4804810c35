package dev.billing.activities.payments;

import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the gateway knows about one charge, as of the moment it was asked.
 *
 * @param idempotencyKey the key the charge was created with; null for charges the gateway holds
 *     without one of ours (created elsewhere)
 * @param transactionId null when NOT_FOUND
 * @param amount null when NOT_FOUND
 * @param refunded what has been refunded of it so far; zero when nothing, null when NOT_FOUND
 * @param subscriptionId from the charge's metadata; null when NOT_FOUND or not one of ours
 * @param cycle from the charge's metadata; null when NOT_FOUND or not one of ours
 * @param createdAt when the gateway accepted (or declined) the charge; null when NOT_FOUND
 * @param settledAt when the money arrived; null while PENDING, for FAILED, and when the gateway
 *     does not tell (Stripe does not expose a bank debit's settlement time on the PaymentIntent)
 * @param returnedAt when a settled charge was returned; null unless RETURNED, and may be null then
 *     too when the gateway does not tell
 * @param failureCode the decline, failure or return code; null unless FAILED or RETURNED
 * @param refunds the refunds that make up {@code refunded}, when the adapter lists them (with
 *     billing's key on those billing made); empty when it does not
 */
public record GatewayChargeState(
    Status status,
    String idempotencyKey,
    String transactionId,
    Money amount,
    Money refunded,
    String subscriptionId,
    Long cycle,
    Instant createdAt,
    Instant settledAt,
    Instant returnedAt,
    String failureCode,
    String failureMessage,
    List<ChargeRefund> refunds) {

  public enum Status {
    /** No charge was created with this key: the money did not move. */
    NOT_FOUND,
    /** The money arrived (and was not returned; refunds do not change this status). */
    SUCCEEDED,
    /** Accepted, not settled yet (bank debit). */
    PENDING,
    /** Declined, or failed before settling. */
    FAILED,
    /** Settled, then taken back by the customer's bank (bank debit return, dispute). */
    RETURNED
  }

  public GatewayChargeState {
    Objects.requireNonNull(status, "status");
    if (status != Status.NOT_FOUND) {
      Objects.requireNonNull(transactionId, "transactionId");
      Objects.requireNonNull(amount, "amount");
      Objects.requireNonNull(createdAt, "createdAt");
    }
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
  }

  /** A state whose refunds are not listed one by one. */
  public GatewayChargeState(
      Status status,
      String idempotencyKey,
      String transactionId,
      Money amount,
      Money refunded,
      String subscriptionId,
      Long cycle,
      Instant createdAt,
      Instant settledAt,
      Instant returnedAt,
      String failureCode,
      String failureMessage) {
    this(
        status,
        idempotencyKey,
        transactionId,
        amount,
        refunded,
        subscriptionId,
        cycle,
        createdAt,
        settledAt,
        returnedAt,
        failureCode,
        failureMessage,
        null);
  }

  /** The answer for a key the gateway has never seen. */
  public static GatewayChargeState notFound(String idempotencyKey) {
    return new GatewayChargeState(
        Status.NOT_FOUND,
        idempotencyKey,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }
}
