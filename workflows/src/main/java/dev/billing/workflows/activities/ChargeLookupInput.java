package dev.billing.workflows.activities;

import dev.billing.domain.PaymentMethod;
import java.time.Instant;
import java.util.Objects;

/**
 * Which charge attempt to ask the gateway about.
 *
 * @param idempotencyKey the key the attempt was sent with
 * @param paymentMethod the payment method it was sent to, when known (narrows the gateway's read);
 *     null otherwise
 * @param sentFrom a lower bound of when the key was first sent: the gateway lists the charges
 *     created from then on, a read that does not lag its writes
 */
public record ChargeLookupInput(
    String subscriptionId,
    long cycle,
    String idempotencyKey,
    PaymentMethod paymentMethod,
    Instant sentFrom) {
  public ChargeLookupInput {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(sentFrom, "sentFrom");
  }
}
