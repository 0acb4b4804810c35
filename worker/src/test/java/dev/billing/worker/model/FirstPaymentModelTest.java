package dev.billing.worker.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * First payments on the whole stack, with the status oracle checked after every step: declined
 * until the schedule is used up (expired), declined on a card that is then replaced (collected),
 * and charged while the caller never got the answer (collected, never expired), beside a
 * subscription created ACTIVE as 1.0.0 did, which is dunned PAST_DUE instead.
 */
@Tag("model")
class FirstPaymentModelTest {

  @Test
  void firstPaymentsExpireOnlyWhenNoMoneyMoved() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      Money price = new Money(999, "USD");
      // Due two days from now, at midnight UTC.
      int day = model.today("UTC").plusDays(2).getDayOfMonth();
      model.create(
          price,
          day,
          "UTC",
          SandboxPaymentMethods.INSUFFICIENT_FUNDS,
          2,
          0,
          SubscriptionStatus.INCOMPLETE);
      model.create(
          price,
          day,
          "UTC",
          SandboxPaymentMethods.CHARGE_DECLINED,
          2,
          0,
          SubscriptionStatus.INCOMPLETE);
      model.create(
          price,
          day,
          "UTC",
          SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE,
          2,
          0,
          SubscriptionStatus.INCOMPLETE);
      model.create(
          price,
          day,
          "UTC",
          SandboxPaymentMethods.INSUFFICIENT_FUNDS,
          2,
          0,
          SubscriptionStatus.ACTIVE);
      model.check();
      for (int i = 0; i < 4; i++) {
        model.advance(Duration.ofDays(2));
        model.check();
      }
      model.update(
          "payment method pm_card_visa for sub-2",
          "sub-2",
          (sub, id) ->
              model.stack.updates.changePaymentMethod(
                  sub, id, SandboxPaymentMethods.paymentMethod(SandboxPaymentMethods.VISA)));
      for (int i = 0; i < 4; i++) {
        model.advance(Duration.ofDays(3));
        model.check();
      }

      assertThat(status(model, "sub-1")).isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(status(model, "sub-2"))
          .as("a hard decline expires at once: a new card comes too late")
          .isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(status(model, "sub-3")).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(status(model, "sub-4")).isEqualTo(SubscriptionStatus.PAST_DUE);
    }
  }

  private static SubscriptionStatus status(BillingModel model, String name) {
    String id = model.idOf(name);
    Subscription record =
        model.stack.store.getSubscription(BillingStack.account(id), id).orElseThrow();
    return record.status();
  }
}
