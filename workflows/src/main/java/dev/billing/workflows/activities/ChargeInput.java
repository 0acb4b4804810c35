package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import java.util.Objects;

/**
 * @param idempotencyKey from {@link dev.billing.domain.BillingIds#chargeKey}: the same on every
 *     Temporal retry of this attempt, so a retry can never charge twice
 * @param description shown on the customer's statement and in the gateway's dashboard
 */
public record ChargeInput(
    String accountId,
    String subscriptionId,
    long cycle,
    int attempt,
    Money amount,
    PaymentMethod paymentMethod,
    String idempotencyKey,
    String description) {

  public ChargeInput {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
  }
}
