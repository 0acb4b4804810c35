package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.RefundInput;
import java.time.Duration;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * MONTHLY <-> YEARLY through the plan change, on the test server. Billed on the 31st in Paris from
 * January 2027: cycle 1 is charged at 2027-01-30T23:00Z (midnight in Paris).
 */
@Timeout(60)
class SubscriptionTermChangeTest {

  private static final BillingSchedule MONTHLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
  private static final BillingSchedule YEARLY_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.YEARLY, "Europe/Paris", 3);
  private static final String SUB = "sub-term";

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  private static void assertCharge(Call<ChargeInput> charge, long cycle, String amount, String at) {
    assertThat(charge.input().cycle()).isEqualTo(cycle);
    assertThat(charge.input().amount()).isEqualTo(usd(amount));
    assertAt(charge.startedAt(), at);
  }

  private static PlanChangeRequest monthlyNow() {
    return new PlanChangeRequest(
        "PRO-MONTHLY",
        usd("9.99"),
        PlanChangeRequest.Effective.NOW,
        Term.MONTHLY,
        "user:ada",
        "monthly-now");
  }

  private static PlanChangeRequest yearlyNow(String requestId) {
    return new PlanChangeRequest(
        "PRO-YEARLY",
        usd("99.00"),
        PlanChangeRequest.Effective.NOW,
        Term.YEARLY,
        "user:ada",
        requestId);
  }

  @Test
  void monthlyToYearlyMidPeriodChargesTheYearLessTheUnusedDaysAndBillsAgainAYearOn() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, MONTHLY_31ST, "9.99"));
      t.runUntil("2027-02-10T10:00:00Z");

      SubscriptionState yearly = workflow.changePlan(yearlyNow("yearly-1"));

      // 99.00 x 355/365 = 96.29 less 9.99 x 18/28 = 6.42.
      Call<ChargeInput> switched = t.fake.charges().get(1);
      assertThat(switched.input().amount()).isEqualTo(usd("89.87"));
      assertThat(switched.input().idempotencyKey())
          .isEqualTo(BillingIds.changeChargeKey(SUB, "yearly-1"));
      Subscription sub = yearly.subscription();
      assertThat(sub.sku()).isEqualTo("PRO-YEARLY");
      assertThat(sub.price()).isEqualTo(usd("99.00"));
      assertThat(sub.schedule().term()).isEqualTo(Term.YEARLY);
      assertThat(sub.cycle()).isEqualTo(2);
      assertThat(sub.nextPaymentDate()).isEqualTo(LocalDate.of(2028, 1, 31));
      assertThat(sub.nextReminderDate()).isEqualTo(LocalDate.of(2028, 1, 28));
      assertThat(events(t, HistoryEvent.PLAN_CHANGED).get(0).receipt().amount())
          .isEqualTo(usd("89.87"));

      t.runUntil("2028-02-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(3);
      assertCharge(t.fake.charges().get(0), 1, "9.99", "2027-01-30T23:00:00Z");
      assertCharge(t.fake.charges().get(2), 2, "99.00", "2028-01-30T23:00:00Z");
      assertThat(record(t).nextPaymentDate()).isEqualTo(LocalDate.of(2029, 1, 31));
    }
  }

  @Test
  void yearlyToMonthlyAtPeriodEndBillsTheMonthlyPriceFromTheYearsEndOnTheClampedDay() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, YEARLY_31ST, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");

      SubscriptionState held =
          workflow.changePlan(
              new PlanChangeRequest(
                  "PRO-MONTHLY",
                  usd("9.99"),
                  PlanChangeRequest.Effective.PERIOD_END,
                  Term.MONTHLY,
                  "user:ada",
                  "monthly-later"));

      assertThat(held.subscription().lifecycle().pendingChange().term()).isEqualTo(Term.MONTHLY);
      assertThat(held.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 1, 31));
      assertThat(t.fake.charges()).hasSize(1);

      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(3);
      assertCharge(t.fake.charges().get(1), 2, "9.99", "2028-01-30T23:00:00Z");
      assertCharge(t.fake.charges().get(2), 3, "9.99", "2028-02-28T23:00:00Z");
      Subscription after = record(t);
      assertThat(after.schedule().term()).isEqualTo(Term.MONTHLY);
      assertThat(after.cycle()).isEqualTo(4);
      assertThat(after.nextPaymentDate()).isEqualTo(LocalDate.of(2028, 3, 31));
      assertThat(events(t, HistoryEvent.PLAN_CHANGED).get(0).detail())
          .isEqualTo(
              "plan PRO-MONTHLY -> PRO-MONTHLY at 9.99 USD, billed monthly (cycle 3 due"
                  + " 2028-02-29) from cycle 2 (held change)");
    }
  }

  @Test
  void yearlyToMonthlyMidYearCreditsTheRestOfTheYearUntilTheMonthsUseItUp() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, YEARLY_31ST, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");

      SubscriptionState monthly = workflow.changePlan(monthlyNow());

      // 9.99 x 20/30 = 6.66 for the rest of June, less 99.00 x 235/365 = 63.74 of the year.
      assertThat(monthly.subscription().lifecycle().balance()).isEqualTo(usd("-57.08"));
      assertThat(monthly.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2027, 6, 30));
      assertThat(t.fake.charges()).as("nothing charged at the switch").hasSize(1);

      // Jun 30 to Oct 31 (cycles 2-6) are paid by the credit (5 x 9.99 = 49.95); Nov 30 charges
      // what the credit leaves: 9.99 - 7.13 = 2.86.
      t.runUntil("2027-12-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      assertCharge(t.fake.charges().get(1), 7, "2.86", "2027-11-29T23:00:00Z");
      assertThat(record(t).lifecycle().balance()).isNull();
    }
  }

  @Test
  void cancellingWithRefundAfterASwitchToMonthlyRefundsTheMonthsUnusedDaysAndTheYearsCredit() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, YEARLY_31ST, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");
      workflow.changePlan(monthlyNow());

      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "cancel-m"));

      // The month's share 6.66 x 19/20 = 6.32 (today used) and the credit the switch left, 57.08,
      // from the year's own charge: never 99.00 x 19/30 of a month the year was not paid as.
      Call<RefundInput> refund = t.fake.refunds().get(0);
      assertThat(t.fake.refunds()).hasSize(1);
      assertThat(refund.input().amount()).isEqualTo(usd("63.40"));
      assertThat(refund.input().idempotencyKey())
          .isEqualTo(BillingIds.refundKey(SUB, 1, "cancel-m"));
      Subscription cancelled = record(t);
      assertThat(cancelled.lifecycle().balance()).as("the credit went back").isNull();
      assertThat(events(t, HistoryEvent.SUBSCRIPTION_CANCELLED).get(0).detail())
          .doesNotContain("left unused");
    }
  }

  @Test
  void cancellingWithRefundAfterASwitchToYearlyRefundsTheYearsUnusedDaysOnce() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, MONTHLY_31ST, "9.99"));
      t.runUntil("2027-02-10T10:00:00Z");
      workflow.changePlan(yearlyNow("yearly-1"));

      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "cancel-y"));

      // 354 of the 355 days from the switch are unused: the month's credit 6.42 -> 6.40 from the
      // month's charge and 89.87 -> 89.61 from the switch's, 96.01 in all (99.00 x 354/365). The
      // month's charge pro rata of the new year (9.68) would refund 99.29.
      List<Call<RefundInput>> refunds = t.fake.refunds();
      assertThat(refunds).hasSize(2);
      assertThat(refunds.get(0).input().amount()).isEqualTo(usd("6.40"));
      assertThat(refunds.get(1).input().amount()).isEqualTo(usd("89.61"));
      String switchCharge = events(t, HistoryEvent.PLAN_CHANGED).get(0).receipt().transactionId();
      assertThat(refunds.get(1).input().transactionId()).isEqualTo(switchCharge);
      assertThat(refunds.get(0).input().transactionId()).isNotEqualTo(switchCharge);
    }
  }

  @Test
  void switchingToMonthlyAndBackTheSameDayKeepsTheFirstSwitchsCreditOwedBackAtCancellation() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested(SUB, YEARLY_31ST, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");
      workflow.changePlan(monthlyNow());
      // Back to yearly from May 31: 99.00 x 356/366 = 96.30 less June's 6.66, 89.64 charged.
      workflow.changePlan(yearlyNow("yearly-again"));
      assertThat(t.fake.charges().get(1).input().amount()).isEqualTo(usd("89.64"));

      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "cancel-2"));

      // The year's charge: 6.66 x 355/356 = 6.64 and the first switch's credit 57.08; the second
      // switch's charge: 89.64 x 355/356 = 89.38. 153.10 of the 188.64 paid.
      List<Call<RefundInput>> refunds = t.fake.refunds();
      assertThat(refunds)
          .extracting(r -> r.input().amount())
          .containsExactly(usd("63.72"), usd("89.38"));
      assertThat(record(t).lifecycle().balance()).isNull();
    }
  }

  @Test
  void aTermSwitchWhoseChargeGotNoAnswerIsAppliedByARunRestartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey(SUB, "yearly-lost");
      t.fake.chargeModeForKey(key, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requested(SUB, MONTHLY_31ST, "9.99"));
      t.runUntil("2027-02-10T10:00:00Z");
      SubscriptionWorkflow running = t.existing(SUB);
      io.temporal.client.WorkflowClient.startUpdate(
          running::changePlan,
          yearlyNow("yearly-lost"),
          io.temporal.client.UpdateOptions.newBuilder(SubscriptionState.class)
              .setUpdateId("yearly-lost")
              .setWaitForStage(io.temporal.client.WorkflowUpdateStage.ACCEPTED)
              .build());
      while (events(t, HistoryEvent.PAYMENT_PENDING).isEmpty()) {
        t.env.sleep(Duration.ofSeconds(20));
      }
      t.untyped(SUB).terminate("lost");
      Subscription lost = record(t);
      assertThat(lost.lifecycle().upgradeCharge().term()).isEqualTo(Term.YEARLY);
      assertThat(lost.schedule().term()).isEqualTo(Term.MONTHLY);

      t.restart(lost, List.of(t.fake.period(SUB, 1)));
      t.runUntil("2027-02-10T11:00:00Z");

      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      assertThat(changed.receipt().amount()).isEqualTo(usd("89.87"));
      assertThat(changed.next().schedule().term()).isEqualTo(Term.YEARLY);
      assertThat(changed.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 1, 31));
      assertThat(t.fake.succeededCharges()).containsKey(key);
    }
  }

  @Test
  void theCycleWaitsForASwitchChargeWithoutAnOutcomeInsteadOfBeingChargedAtTheOldTerm() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey(SUB, "yearly-late");
      t.fake.chargeModeForKey(key, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requested(SUB, MONTHLY_31ST, "9.99"));
      t.runUntil("2027-02-26T10:00:00Z");
      t.fake.lookupsDown(true);
      io.temporal.client.WorkflowClient.startUpdate(
          t.existing(SUB)::changePlan,
          yearlyNow("yearly-late"),
          io.temporal.client.UpdateOptions.newBuilder(SubscriptionState.class)
              .setUpdateId("yearly-late")
              .setWaitForStage(io.temporal.client.WorkflowUpdateStage.ACCEPTED)
              .build());
      while (events(t, HistoryEvent.PAYMENT_PENDING).isEmpty()) {
        t.env.sleep(Duration.ofSeconds(20));
      }

      // Cycle 2 was due 2027-02-28 (the 31st clamped): held while the switch's outcome is unknown.
      t.runUntil("2027-03-02T10:00:00Z");
      // (The switch's own charge, sent again under its one key while unanswered, is on cycle 1.)
      assertThat(t.fake.charges()).extracting(c -> c.input().cycle()).containsOnly(1L);

      t.fake.lookupsDown(false);
      t.runUntil("2027-03-04T10:00:00Z");
      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      assertThat(changed.next().schedule().term()).isEqualTo(Term.YEARLY);
      assertThat(changed.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 1, 31));
      assertThat(t.fake.charges())
          .as("no monthly charge of cycle 2 beside the year")
          .extracting(c -> c.input().cycle())
          .containsOnly(1L);
      assertThat(t.fake.succeededCharges()).hasSize(2);
      assertThat(t.fake.succeededCharges()).containsKey(key);
    }
  }

  @Test
  void aPlanChangeWithoutATermKeepsTheFingerprintItHadBeforeTermsExisted() {
    PlanChangeRequest plain =
        new PlanChangeRequest(
            "PRO-MAX", usd("19.99"), PlanChangeRequest.Effective.NOW, "user:ada", "r-1");

    assertThat(plain.withRequestId(null).toString())
        .isEqualTo(
            "PlanChangeRequest[sku=PRO-MAX, price=19.99 USD, effective=NOW,"
                + " requestedBy=user:ada, requestId=null]");
    assertThat(UpdateRequests.fingerprint(yearlyNow("r-1")))
        .isNotEqualTo(
            UpdateRequests.fingerprint(
                new PlanChangeRequest(
                    "PRO-YEARLY",
                    usd("99.00"),
                    PlanChangeRequest.Effective.NOW,
                    "user:ada",
                    "r-1")));
  }
}
