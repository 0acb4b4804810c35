package dev.billing.worker.model;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.Money;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PlanChangeRequest;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed -2330497222848550493 (the fourth one-hour run), as the model drew it: an immediate upgrade
 * paid by a bank debit that is still settling when the subscription is cancelled now with the
 * unused days refunded. The debit settles after the end; the plan never changed, so the books only
 * balance when all of it is refunded.
 */
@Tag("model")
class UpgradeAfterEndModelTest {
  @Test
  void anUpgradeDebitThatSettlesAfterTheCancellationIsRefunded() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(
          new Money(999, "USD"),
          6,
          "Pacific/Auckland",
          "pm_sandbox_bankDebit",
          3,
          2,
          SubscriptionStatus.ACTIVE);
      model.advance(Duration.ofDays(12));
      model.check();
      model.update(
          "plan 20.00 USD NOW for sub-1",
          "sub-1",
          (sub, id) ->
              model.stack.updates.changePlan(
                  sub, id, "plan-2000", new Money(2000, "USD"), PlanChangeRequest.Effective.NOW));
      model.check();
      model.update(
          "payment method pm_card_visa for sub-1",
          "sub-1",
          (sub, id) ->
              model.stack.updates.changePaymentMethod(
                  sub, id, SandboxPaymentMethods.paymentMethod("pm_card_visa")));
      // The refund of the unused days gets no answer: the run stays open to send it again.
      model.stack.gateway.loseAnswers(1);
      model.update(
          "cancel now refundUnused for sub-1",
          "sub-1",
          (sub, id) -> model.stack.updates.cancel(sub, id, false, true));
      model.check();
      // The judge allows an upgrade's charge its lookups for two days after it sees it, no more.
      for (int i = 0; i < 4; i++) {
        model.advance(Duration.ofDays(2));
        model.check();
      }
    }
  }
}
