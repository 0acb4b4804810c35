package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Charges through the payment gateway. A decline fails with a non-retryable ApplicationFailure of
 * type {@link PaymentFailures#DECLINED} carrying {@link DeclineDetails}; gateway errors fail with
 * a retryable one.
 */
@ActivityInterface
public interface PaymentActivities {
  @ActivityMethod(name = "ChargePaymentMethod")
  ChargeResult charge(ChargeInput input);
}
