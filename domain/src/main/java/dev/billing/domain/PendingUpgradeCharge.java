package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * An immediate upgrade whose prorated charge got no answer, kept on the subscription item (the
 * system of record) until the gateway's exact lookup tells what became of the key: a run restarted
 * from the record asks for it again instead of forgetting the change.
 *
 * @param paidCycle the period the charge paid the rest of (its receipt's cycle)
 * @param paymentMethod the method the key was sent to (the lookup asks under it)
 * @param sentFrom a lower bound of when the key was first sent
 * @param term the term the change switches to (its prorated charge covers the new term's period);
 *     null when the term stays
 */
public record PendingUpgradeCharge(
    String requestId,
    String idempotencyKey,
    String sku,
    Money price,
    Money amount,
    long paidCycle,
    PaymentMethod paymentMethod,
    Instant sentFrom,
    Term term) {

  public PendingUpgradeCharge {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
    Objects.requireNonNull(sentFrom, "sentFrom");
  }

  /** An upgrade that keeps the term. */
  public PendingUpgradeCharge(
      String requestId,
      String idempotencyKey,
      String sku,
      Money price,
      Money amount,
      long paidCycle,
      PaymentMethod paymentMethod,
      Instant sentFrom) {
    this(requestId, idempotencyKey, sku, price, amount, paidCycle, paymentMethod, sentFrom, null);
  }
}
