package dev.billing.activities.payments;

import java.time.Instant;
import java.util.Objects;

/**
 * Which charge to find: the one created with {@code idempotencyKey} no earlier than {@code
 * sentFrom}.
 *
 * @param idempotencyKey the key the charge was (or may have been) sent with
 * @param paymentMethodToken the token it was sent with, when known: lets an adapter narrow an exact
 *     list read (Stripe: by the customer of a {@code cus_…/pm_…} token); null when unknown
 * @param sentFrom a lower bound of when the key was first sent (the attempt's start, or the
 *     period's due instant): an exact read lists the charges created from then on, and an answer is
 *     never taken from an idempotency record the gateway may have forgotten
 */
public record ChargeQuery(String idempotencyKey, String paymentMethodToken, Instant sentFrom) {
  public ChargeQuery {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(sentFrom, "sentFrom");
  }

  /** Leaves the payment method token out: logs must never carry one. */
  @Override
  public String toString() {
    return "ChargeQuery[idempotencyKey=" + idempotencyKey + ", sentFrom=" + sentFrom + "]";
  }
}
