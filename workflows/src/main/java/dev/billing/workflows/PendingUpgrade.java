package dev.billing.workflows;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Term;
import java.time.Instant;

/**
 * An immediate plan change whose prorated charge got no answer: the plan is unchanged until the
 * charge is found (then it is applied with its receipt) or shown not to exist (then it is dropped).
 *
 * @param idempotencyKey the charge's key, derived from the request id
 * @param sentFrom a lower bound of when the key was first sent (when the request was applied)
 * @param lookups how many lookups got no answer so far (spaces the next one)
 * @param term the term the change switches to; null when it stays (and in runs before terms)
 */
public record PendingUpgrade(
    String requestId,
    String idempotencyKey,
    String sku,
    Money price,
    Money amount,
    long paidCycle,
    PaymentMethod paymentMethod,
    Instant sentFrom,
    String actor,
    String why,
    int lookups,
    Term term) {

  /** A change that keeps the term. */
  public PendingUpgrade(
      String requestId,
      String idempotencyKey,
      String sku,
      Money price,
      Money amount,
      long paidCycle,
      PaymentMethod paymentMethod,
      Instant sentFrom,
      String actor,
      String why,
      int lookups) {
    this(
        requestId,
        idempotencyKey,
        sku,
        price,
        amount,
        paidCycle,
        paymentMethod,
        sentFrom,
        actor,
        why,
        lookups,
        null);
  }

  public PendingUpgrade asked() {
    return new PendingUpgrade(
        requestId,
        idempotencyKey,
        sku,
        price,
        amount,
        paidCycle,
        paymentMethod,
        sentFrom,
        actor,
        why,
        lookups + 1,
        term);
  }
}
