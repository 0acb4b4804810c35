package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.Pause;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.PlanChangeRequest.Effective;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.WaiveRequest;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** Which change is refused in which state, and why: plain unit tests, no test server. */
class ChangeRulesTest {

  static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  static final LocalDate TODAY = LocalDate.parse("2028-02-01");

  static Subscription sub(SubscriptionStatus status, Lifecycle lifecycle) {
    return new Subscription(
        "acct-1",
        "sub-1",
        "basic",
        usd("10.00"),
        "a@example.com",
        new PaymentMethod("pm_1", "visa-4242"),
        ON_THE_15TH,
        status,
        2,
        LocalDate.parse("2028-02-12"),
        LocalDate.parse("2028-02-15"),
        null,
        Instant.parse("2028-01-15T00:00:00Z"),
        Instant.parse("2028-01-01T00:00:00Z"),
        3,
        "hash",
        null,
        lifecycle);
  }

  static Subscription active() {
    return sub(SubscriptionStatus.ACTIVE, null);
  }

  static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  @Test
  void anExpiredSubscriptionAcceptsNoChangeButARefundAndSaysWhy() {
    Subscription sub = sub(SubscriptionStatus.INCOMPLETE_EXPIRED, null);
    String expired = "subscription expired: its first payment was never collected";
    assertThat(ChangeRules.pause(sub, null, false, TODAY)).isEqualTo(expired);
    assertThat(ChangeRules.resume(sub, false)).isEqualTo(expired);
    assertThat(ChangeRules.billingDay(sub, new BillingDayChange(3, "u"), false)).isEqualTo(expired);
    assertThat(ChangeRules.pay(sub, false, 1L, null)).isEqualTo(expired);
    assertThat(ChangeRules.waive(sub, new WaiveRequest(1, null, "u"), false)).isEqualTo(expired);
    assertThat(
            ChangeRules.paymentMethod(
                sub, new PaymentMethodChange(new PaymentMethod("pm_2", "m"), "u"), false))
        .isEqualTo(expired);
    assertThat(ChangeRules.cancel(sub, new CancelRequest("r", "u"), false)).isEqualTo(expired);
    assertThat(ChangeRules.refund(new RefundRequest(1, null, null, "u"))).isNull();
  }

  @Test
  void anIncompleteSubscriptionCannotBePausedWhileItsFirstPaymentIsRetriedNorWaived() {
    Subscription sub = sub(SubscriptionStatus.INCOMPLETE, null).withLastPaymentAt(null);
    String incomplete = "subscription is incomplete: its first payment has not been collected";
    assertThat(ChangeRules.pause(sub, null, false, TODAY, true))
        .isEqualTo(
            incomplete + " and is being retried; pay it, give a new payment method or cancel");
    // Before its first attempt (a later start date) it is paused, moved and cancelled as before.
    assertThat(ChangeRules.pause(sub, null, false, TODAY, false)).isNull();
    assertThat(ChangeRules.billingDay(sub, new BillingDayChange(3, "u"), false)).isNull();
    assertThat(ChangeRules.cancelAtPeriodEnd(sub)).isNull();
    assertThat(ChangeRules.waive(sub, new WaiveRequest(1, null, "u"), false))
        .isEqualTo(incomplete + "; it is not waived (it expires unpaid, or cancel it)");
    assertThat(ChangeRules.cancel(sub, new CancelRequest("r", "u"), false)).isNull();
    assertThat(ChangeRules.pay(sub, false, 1L, null)).isNull();
    assertThat(
            ChangeRules.paymentMethod(
                sub, new PaymentMethodChange(new PaymentMethod("pm_2", "m"), "u"), false))
        .isNull();
  }

  @Test
  void everyChangeButARefundIsRefusedOnceCancelledOrWhileACancellationIsUnderWay() {
    // Cancelled, or active with an immediate cancellation accepted but not recorded yet.
    for (boolean cancelling : new boolean[] {false, true}) {
      Subscription sub = cancelling ? active() : sub(SubscriptionStatus.CANCELLED, null);
      assertThat(ChangeRules.pause(sub, null, cancelling, TODAY))
          .isEqualTo("subscription is cancelled");
      assertThat(ChangeRules.resume(sub, cancelling)).isEqualTo("subscription is cancelled");
      assertThat(ChangeRules.billingDay(sub, new BillingDayChange(3, "u"), cancelling))
          .isEqualTo("subscription is cancelled");
      assertThat(ChangeRules.pay(sub, cancelling, 1L, null)).isEqualTo("subscription is cancelled");
      assertThat(ChangeRules.waive(sub, new WaiveRequest(1, null, "u"), cancelling))
          .isEqualTo("subscription is cancelled");
      assertThat(
              ChangeRules.paymentMethod(
                  sub, new PaymentMethodChange(new PaymentMethod("pm_2", "m"), "u"), cancelling))
          .isEqualTo("subscription is cancelled");
      assertThat(ChangeRules.cancel(sub, new CancelRequest(null, "u"), cancelling))
          .isEqualTo("subscription is already cancelled");
      assertThat(ChangeRules.refund(new RefundRequest(1, null, null, "u"))).isNull();
    }
  }

  @Test
  void pauseRules() {
    assertThat(ChangeRules.pause(active(), new PauseRequest(3, null, null, "u"), false, TODAY))
        .isNull();
    assertThat(
            ChangeRules.pause(
                active(), new PauseRequest(2, TODAY.plusDays(9), null, "u"), false, TODAY))
        .isEqualTo("give either cycles or until, not both");
    assertThat(ChangeRules.pause(active(), new PauseRequest(37, null, null, "u"), false, TODAY))
        .isEqualTo("cycles must be between 1 and 36");
    assertThat(ChangeRules.pause(active(), new PauseRequest(null, TODAY, null, "u"), false, TODAY))
        .isEqualTo("until must be after today (2028-02-01)");
    Subscription paused =
        sub(SubscriptionStatus.PAUSED, Lifecycle.NONE.withPause(new Pause(TODAY, null, null)));
    assertThat(ChangeRules.pause(paused, null, false, TODAY))
        .isEqualTo("subscription is already paused");
    assertThat(ChangeRules.resume(paused, false)).isNull();
    assertThat(ChangeRules.resume(active(), false)).isEqualTo("subscription is not paused");
    Subscription ending =
        sub(SubscriptionStatus.ACTIVE, Lifecycle.NONE.withCancelsOn(LocalDate.parse("2028-02-15")));
    assertThat(ChangeRules.pause(ending, null, false, TODAY))
        .isEqualTo("subscription ends on 2028-02-15; it cannot be paused");
  }

  @Test
  void planRules() {
    PlanChangeRequest pro = new PlanChangeRequest("pro", usd("20.00"), Effective.NOW, "u");
    assertThat(ChangeRules.plan(active(), pro, false, null)).isNull();
    assertThat(ChangeRules.plan(sub(SubscriptionStatus.PAST_DUE, null), pro, false, null))
        .isEqualTo(
            "subscription is past due; pay the unpaid period first, or change the plan at period end");
    assertThat(
            ChangeRules.plan(
                sub(SubscriptionStatus.PAST_DUE, null),
                new PlanChangeRequest("pro", usd("20.00"), Effective.PERIOD_END, "u"),
                false,
                null))
        .isNull();
    assertThat(
            ChangeRules.plan(
                active(),
                new PlanChangeRequest("pro", Money.parse("20.00", "EUR"), Effective.NOW, "u"),
                false,
                null))
        .isEqualTo("currency must be the subscription's (USD)");
    assertThat(
            ChangeRules.plan(
                active(),
                new PlanChangeRequest("basic", usd("10.00"), Effective.NOW, "u"),
                false,
                null))
        .isEqualTo("subscription is already on basic at 10.00 USD");
    Subscription held =
        sub(
            SubscriptionStatus.ACTIVE,
            Lifecycle.NONE.withPendingChange(new PendingPlanChange("pro", usd("20.00"), 2)));
    assertThat(
            ChangeRules.plan(
                held,
                new PlanChangeRequest("basic", usd("10.00"), Effective.NOW, "u"),
                false,
                null))
        .as("back to the current plan cancels the held change")
        .isNull();
    PendingUpgrade upgrading =
        new PendingUpgrade(
            "r1",
            "change:sub-1:r1",
            "pro",
            usd("20.00"),
            usd("5.00"),
            1,
            active().paymentMethod(),
            Instant.EPOCH,
            "u",
            "why",
            0);
    assertThat(ChangeRules.plan(active(), pro, false, upgrading))
        .isEqualTo(
            "the change to pro waits for the "
                + "outcome of its charge (change:sub-1:r1); change the plan once it is known");
  }

  @Test
  void billingDayPayAndPeriodRules() {
    assertThat(ChangeRules.billingDay(active(), new BillingDayChange(15, "u"), false))
        .isEqualTo("subscription already bills on day 15");
    assertThat(ChangeRules.billingDay(active(), new BillingDayChange(32, "u"), false))
        .isEqualTo("billingDay must be between 1 and 31");
    assertThat(
            ChangeRules.billingDay(
                sub(SubscriptionStatus.TRIALING, null), new BillingDayChange(3, "u"), false))
        .isEqualTo("the billing day follows the trial's end; change it after the first payment");
    assertThat(ChangeRules.pay(active(), false, null, null))
        .isEqualTo("nothing is owed: no period is unpaid");
    assertThat(ChangeRules.pay(active(), false, null, 2L))
        .isEqualTo(
            "the outcome of cycle 2's last charge is not known yet; nothing to pay until it is");
    assertThat(ChangeRules.pay(active(), false, 1L, 2L)).isNull();
    assertThat(ChangeRules.waive(active(), null, false)).isEqualTo("a period is required");
    assertThat(ChangeRules.waive(active(), new WaiveRequest(0, null, "u"), false))
        .isEqualTo("period ids are cycle numbers from 1");
    assertThat(ChangeRules.refund(new RefundRequest(0, null, null, "u")))
        .isEqualTo("period ids are cycle numbers from 1");
  }

  @Test
  void cancellationRules() {
    assertThat(ChangeRules.cancel(active(), null, false)).isNull();
    assertThat(ChangeRules.cancel(active(), new CancelRequest(null, "u", true, true), false))
        .isEqualTo("refundUnused applies to an immediate cancellation only");
    Subscription paused =
        sub(SubscriptionStatus.PAUSED, Lifecycle.NONE.withPause(new Pause(TODAY, null, null)));
    assertThat(ChangeRules.cancel(paused, new CancelRequest(null, "u", true, false), false))
        .isEqualTo("subscription is paused: nothing paid runs on; cancel it immediately instead");
    assertThat(ChangeRules.cancel(paused, new CancelRequest(null, "u"), false)).isNull();
    Subscription ending =
        sub(SubscriptionStatus.ACTIVE, Lifecycle.NONE.withCancelsOn(LocalDate.parse("2028-02-15")));
    assertThat(ChangeRules.cancelAtPeriodEnd(ending))
        .isEqualTo("subscription already ends on 2028-02-15");
    assertThat(ChangeRules.paymentMethod(active(), null, false))
        .isEqualTo("a payment method is required");
  }

  @Test
  void reactivationTakesACancelledOrCancellingSubscriptionWhoseMoneyHasSettled() {
    Subscription cancelling =
        sub(SubscriptionStatus.ACTIVE, Lifecycle.NONE.withCancelsOn(LocalDate.parse("2028-02-15")));
    Subscription ended = sub(SubscriptionStatus.CANCELLED, null);

    assertThat(ChangeRules.reactivate(active(), false, false))
        .isEqualTo("subscription is not cancelled");
    assertThat(ChangeRules.reactivate(cancelling, false, false)).isNull();
    // Money still moving does not stop taking back a cancellation: the run keeps collecting.
    assertThat(ChangeRules.reactivate(cancelling, false, true)).isNull();
    assertThat(ChangeRules.reactivate(cancelling, true, false))
        .isEqualTo("subscription is being cancelled");
    assertThat(ChangeRules.reactivate(ended, false, false)).isNull();
    assertThat(ChangeRules.reactivate(ended, false, true))
        .startsWith("a payment of the cancelled subscription has no final outcome yet");
  }

  @Test
  void theSamePlanOnAnotherTermIsAChangeAndOnItsOwnTermIsNot() {
    PlanChangeRequest yearly =
        new PlanChangeRequest(
            "basic",
            usd("10.00"),
            PlanChangeRequest.Effective.PERIOD_END,
            dev.billing.domain.Term.YEARLY,
            "user:ada",
            null);
    PlanChangeRequest monthly =
        new PlanChangeRequest(
            "basic",
            usd("10.00"),
            PlanChangeRequest.Effective.PERIOD_END,
            dev.billing.domain.Term.MONTHLY,
            "user:ada",
            null);

    assertThat(ChangeRules.plan(active(), yearly, false, null)).isNull();
    assertThat(ChangeRules.termSwitch(active(), yearly)).isEqualTo(dev.billing.domain.Term.YEARLY);
    assertThat(ChangeRules.plan(active(), monthly, false, null))
        .isEqualTo("subscription is already on basic at 10.00 USD");
    assertThat(ChangeRules.termSwitch(active(), monthly)).isNull();
  }
}
