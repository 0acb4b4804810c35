package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.PlanChangeRequest.Effective;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The paid period in service after a billing-day move, on the test server. Billed monthly on the
 * 31st in UTC from May 2027: cycle 1 is paid 2027-05-31 for May 31 - Jun 30 (30 days). On Jun 10
 * the billing day moves to the 15th: cycle 2 moves from Jun 30 to Jul 15, and the 15 added days are
 * 15 of the 31 days of Jun 30 - Jul 31 at 9.99 (4.83, carried to that charge). The period in
 * service is May 31 - Jul 15, not the moved schedule's Jun 15 - Jul 15.
 */
@Timeout(60)
class BillingDayPeriodTest {

  private static final BillingSchedule MONTHLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 5), 31, Term.MONTHLY, "UTC", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static SubscriptionWorkflow movedOnJune10(BillingTestEnvironment t, String id, int day) {
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested(id, MONTHLY_31ST, "9.99"));
    t.runUntil("2027-06-10T10:00:00Z");
    workflow.changeBillingDay(new BillingDayChange(day, "user:ada"));
    return workflow;
  }

  @Test
  void anUpgradeAfterTheDayMovedLaterChargesTheDaysLeftOfTheRealPeriod() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = movedOnJune10(t, "sub-bdu", 15);
      assertThat(workflow.state().subscription().nextPaymentDate())
          .isEqualTo(LocalDate.of(2027, 7, 15));
      assertThat(workflow.state().subscription().lifecycle().balance()).isEqualTo(usd("4.83"));

      workflow.changePlan(new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.NOW, "user:a"));

      // 10.00 for Jun 10 - Jun 30 (20 of the paid 30 days) and for the 15 added days (15 of 31, as
      // the move priced them): 10.00 x (20/30 + 15/31) = 11.505..., half up 11.51.
      assertThat(t.fake.charges()).hasSize(2);
      assertThat(t.fake.charges().get(1).input().amount()).isEqualTo(usd("11.51"));
      assertThat(t.fake.charges().get(1).input().cycle()).isEqualTo(1);

      // Cycle 2: the new price and the added days at the old price.
      t.runUntil("2027-07-16T00:00:00Z");
      assertThat(t.fake.charges().get(2).input().amount()).isEqualTo(usd("24.82"));
    }
  }

  @Test
  void anUpgradeAfterTheDayMovedToAClampedEarlierDayCountsThePaidThirtyDays() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      // Day 30 keeps cycle 2 on Jun 30 (no day added), but the moved schedule would start cycle 1
      // on May 30, a day before it was paid.
      SubscriptionWorkflow workflow = movedOnJune10(t, "sub-bde", 30);
      assertThat(workflow.state().subscription().lifecycle().balance()).isNull();

      workflow.changePlan(new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.NOW, "user:a"));

      // 10.00 x 20/30 = 6.666..., half up 6.67 (not 20/31 = 6.45).
      assertThat(t.fake.charges().get(1).input().amount()).isEqualTo(usd("6.67"));
    }
  }

  @Test
  void aCancellationWithRefundAfterTheDayMovedRefundsTheUnusedPaidDays() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = movedOnJune10(t, "sub-bdc", 15);

      workflow.cancel(new CancelRequest(null, "user:ada", false, true));

      // The charge paid May 31 - Jun 30; Jun 10 is used, Jun 11 - Jun 29 are 19 of its 30 days:
      // 9.99 x 19/30 = 6.327, down to 6.32. The added days were never collected: the 4.83 carried
      // for them is left with the cancellation, not refunded.
      assertThat(t.fake.refunds()).extracting(c -> c.input().amount()).containsExactly(usd("6.32"));
      assertThat(t.fake.period("sub-bdc", 1).status()).isEqualTo(PeriodStatus.REFUNDED);
    }
  }

  @Test
  void aTermSwitchAfterTheDayMovedCreditsTheRealPeriodAndDropsItsMovedDates() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = movedOnJune10(t, "sub-bdt", 15);
      assertThat(workflow.state().subscription().lifecycle().moved()).isNotNull();

      SubscriptionState yearly =
          workflow.changePlan(
              new PlanChangeRequest(
                  "PRO-YEARLY", usd("99.00"), Effective.NOW, Term.YEARLY, "user:a", "bd-yearly"));

      // 99.00 x 340/366 (May 15, 2027 - May 15, 2028) = 91.97, less 9.99 x (20/30 + 15/31) =
      // 11.49 for the days left of the real period; the 4.83 carried for the added days stays.
      assertThat(t.fake.charges().get(1).input().amount()).isEqualTo(usd("80.48"));
      assertThat(yearly.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 5, 15));
      assertThat(yearly.subscription().lifecycle().balance()).isEqualTo(usd("4.83"));
      assertThat(yearly.subscription().lifecycle().moved()).isNull();
    }
  }

  @Test
  void aCancellationAfterAMoveAndATermSwitchRefundsOnlyMoneyThatWasCollected() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = movedOnJune10(t, "sub-bdc", 15);
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-YEARLY", usd("99.00"), Effective.NOW, Term.YEARLY, "user:a", "bd-year-c"));
      assertThat(workflow.state().subscription().lifecycle().reTermed().carried())
          .as("the month's 9.99 x 20/30; the added days' 4.83 is still on the balance")
          .isEqualTo(usd("6.66"));
      t.runUntil("2027-06-11T10:00:00Z");

      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "bd-cancel"));

      // 338 of the 340 days from the switch are unused: 6.66 x 338/340 = 6.62 of the month's
      // charge, 80.48 x 338/340 = 80.00 of the switch's; the 4.83 carried is written off. Counting
      // the added days as paid would refund the month's whole 9.99.
      assertThat(t.fake.refunds())
          .extracting(r -> r.input().amount())
          .containsExactly(usd("6.62"), usd("80.00"));
    }
  }

  @Test
  void theDayCannotMoveWhileAnUpgradesChargeHasNoOutcome() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-05-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bdp", MONTHLY_31ST, "9.99"));
      t.runUntil("2027-06-05T10:00:00Z");
      // A bank debit: the switch waits for it to settle.
      t.fake.chargeModeForKey(
          dev.billing.domain.BillingIds.changeChargeKey("sub-bdp", "bd-pending"),
          FakeBillingActivities.ChargeMode.PENDING);
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-YEARLY", usd("99.00"), Effective.NOW, Term.YEARLY, "user:a", "bd-pending"));

      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> workflow.changeBillingDay(new BillingDayChange(15, "user:ada")))
          .hasStackTraceContaining("waiting for its charge");
      assertThat(workflow.state().subscription().schedule().billingDay()).isEqualTo(31);
    }
  }
}
