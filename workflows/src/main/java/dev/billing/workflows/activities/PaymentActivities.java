package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Charges through the payment gateway. A decline fails with a non-retryable ApplicationFailure of
 * type {@link PaymentFailures#DECLINED} carrying {@link DeclineDetails}; gateway errors fail with a
 * retryable one.
 */
@ActivityInterface
public interface PaymentActivities {
  @ActivityMethod(name = "ChargePaymentMethod")
  ChargeResult charge(ChargeInput input);

  /**
   * Asks the gateway what became of an attempt whose outcome is unknown (the charge call timed out,
   * or a bank debit's settlement event never came). Read-only: safe to retry.
   */
  @ActivityMethod(name = "LookUpCharge")
  ChargeLookup lookUpCharge(ChargeLookupInput input);

  /**
   * Gives back (part of) a collected charge. A refund the gateway refuses (more than is left, a
   * charge that holds no money) fails with a non-retryable ApplicationFailure of type {@link
   * PaymentFailures#REFUND_REFUSED}; gateway errors are retried with the same key.
   */
  @ActivityMethod(name = "RefundPayment")
  RefundResult refund(RefundInput input);
}
