package dev.billing.worker.model;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.Money;
import dev.billing.domain.SubscriptionStatus;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A bank debit returned after its subscription's run ended, step by step as the model drew it
 * (seeds -1991666405825521333 and 5304155928380234733): a past-due period repaid by a bank debit,
 * the subscription cancelled while the debit settles, then the bank returns it. The books must show
 * the money as returned, not collected, although no run was open when the return came.
 */
@Tag("model")
class ReturnAfterEndModelTest {

  @Test
  void aDebitReturnedAfterACancelNowIsRecordedAsReturned() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(
          new Money(999, "USD"),
          10,
          "UTC",
          SandboxPaymentMethods.CHARGE_DECLINED,
          3,
          0,
          SubscriptionStatus.ACTIVE);
      model.advance(Duration.ofDays(12)); // cycle 1 due on the 10th, declined: PAST_DUE
      model.check();
      model.update(
          "payment method pm_sandbox_bankDebitReturned for sub-1",
          "sub-1",
          (sub, id) ->
              model.stack.updates.changePaymentMethod(
                  sub,
                  id,
                  SandboxPaymentMethods.paymentMethod(SandboxPaymentMethods.BANK_DEBIT_RETURNED)));
      model.update("pay sub-1", "sub-1", model.stack.updates::payNow);
      model.update(
          "cancel now sub-1",
          "sub-1",
          (sub, id) -> model.stack.updates.cancel(sub, id, false, false));
      model.check();
      for (int i = 0; i < 6; i++) {
        model.advance(Duration.ofDays(2));
        model.check();
      }
    }
  }
}
