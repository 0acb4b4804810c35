package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
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

  /**
   * Attempt {@code attempt} of a period: the customer's statement names the plan, the period and
   * its due date.
   */
  public static ChargeInput ofPeriod(
      Subscription sub, long cycle, int attempt, Money amount, String idempotencyKey) {
    return new ChargeInput(
        sub.accountId(),
        sub.subscriptionId(),
        cycle,
        attempt,
        amount,
        sub.paymentMethod(),
        idempotencyKey,
        sub.sku() + " subscription, period " + cycle + " due " + sub.schedule().dueDate(cycle));
  }

  /** An immediate upgrade's prorated difference for the rest of the paid period (attempt 0). */
  public static ChargeInput ofUpgrade(
      Subscription sub, long paidCycle, String newSku, Money amount, String idempotencyKey) {
    return new ChargeInput(
        sub.accountId(),
        sub.subscriptionId(),
        paidCycle,
        0,
        amount,
        sub.paymentMethod(),
        idempotencyKey,
        "upgrade to " + newSku + ", rest of period " + paidCycle);
  }
}
