package dev.billing.workflows;

import static dev.billing.workflows.Refusals.assertRefused;
import static dev.billing.workflows.SubscriptionPauseTest.event;
import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.PlanChangeRequest.Effective;
import io.temporal.client.WorkflowStub;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Plan changes, cancellation modes, manual repayment, waivers, refunds, the billing day and stale
 * periods, with exact amounts and dates. Cycle 1 is due 2028-01-15 and paid then; its period runs
 * to 2028-02-15 (31 days).
 */
@Timeout(60)
class SubscriptionChangesTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  @Test
  void anUpgradeNowChargesTheDifferenceForTheDaysLeftAndTheNextCycleTheNewPrice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-up", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");

      SubscriptionState upgraded =
          workflow.changePlan(
              new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.NOW, "user:ada"));

      // 10.00 for 26 of 31 days (Jan 20 included) = 8.387..., half up to 8.39.
      Call<dev.billing.workflows.activities.ChargeInput> proration = t.fake.charges().get(1);
      assertThat(proration.input().amount()).isEqualTo(usd("8.39"));
      assertThat(proration.input().idempotencyKey())
          .isEqualTo(
              dev.billing.domain.BillingIds.changeChargeKey(
                  "sub-up", upgraded.request().requestId()));
      RecordInput changed = event(t, HistoryEvent.PLAN_CHANGED);
      assertThat(changed.receipt().amount()).isEqualTo(usd("8.39"));
      assertThat(changed.receipt().cycle()).isEqualTo(1);
      assertThat(changed.receipt().sku()).isEqualTo("PRO-MAX");
      assertThat(upgraded.subscription().sku()).isEqualTo("PRO-MAX");
      assertThat(upgraded.subscription().price()).isEqualTo(usd("19.99"));

      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(t.fake.charges().get(2).input().amount()).isEqualTo(usd("19.99"));
    }
  }

  @Test
  void anUpgradeAndTheDowngradeBackOnTheSameDayNetToNothing() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-same", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.NOW, null));
      t.runUntil("2028-01-20T11:00:00Z");

      SubscriptionState back =
          workflow.changePlan(
              new PlanChangeRequest(BillingTestEnvironment.SKU, usd("9.99"), Effective.NOW, null));

      assertThat(back.subscription().lifecycle().balance()).isEqualTo(usd("-8.39"));
      t.runUntil("2028-02-16T00:00:00Z");
      // The credit is spent by the next charge: 9.99 - 8.39.
      assertThat(t.fake.charges())
          .extracting(c -> c.input().amount())
          .containsExactly(usd("9.99"), usd("8.39"), usd("1.60"));
      assertThat(workflow.state().subscription().lifecycle().balance()).isNull();
    }
  }

  @Test
  void aCreditThatCoversTheNextPriceIsUsedWithoutAChargeUntilItRunsOut() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-credit", ON_THE_15TH, "30.00"));
      t.runUntil("2028-01-15T10:00:00Z");
      // On the day it was paid: all 31 days of the period are unused, 20.00 of credit.
      SubscriptionState down =
          workflow.changePlan(new PlanChangeRequest("BASIC", usd("10.00"), Effective.NOW, null));
      assertThat(down.subscription().lifecycle().balance()).isEqualTo(usd("-20.00"));

      t.runUntil("2028-04-16T00:00:00Z");

      // February and March are covered by the credit (10.00 each): no charge, no dunning.
      assertThat(t.fake.charges())
          .extracting(c -> c.input().cycle(), c -> c.input().amount())
          .containsExactly(tuple(1L, usd("30.00")), tuple(4L, usd("10.00")));
      for (long cycle : new long[] {2, 3}) {
        RecordInput covered = SubscriptionWorkflowDunningTest.periodRecords(t, cycle).get(0);
        assertThat(covered.changeId()).isEqualTo("cycle-" + cycle + "/credit");
        assertThat(covered.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
        assertThat(covered.period().status()).isEqualTo(PeriodStatus.COMPLETED);
        assertThat(covered.period().amount()).isEqualTo(usd("0.00"));
        assertThat(covered.period().transactionId()).isNull();
        assertThat(covered.receipt()).isNull();
        assertThat(covered.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
        assertThat(covered.next().lifecycle().balance())
            .isEqualTo(cycle == 2 ? usd("-10.00") : null);
      }
      assertThat(t.fake.records()).noneMatch(r -> r.input().event() == HistoryEvent.PAYMENT_FAILED);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aPlanChangeInAPeriodAPauseSkippedIsNotProrated() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-skip", ON_THE_15TH, "20.00"));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.pause(new PauseRequest(null, LocalDate.of(2028, 2, 20), null, null));
      t.runUntil("2028-02-21T10:00:00Z"); // cycle 2 (Feb 15) skipped, resumed on Feb 20

      SubscriptionState up =
          t.existing("sub-skip")
              .changePlan(new PlanChangeRequest("PRO-MAX", usd("30.00"), Effective.NOW, null));
      SubscriptionState down =
          t.existing("sub-skip")
              .changePlan(new PlanChangeRequest("BASIC", usd("10.00"), Effective.NOW, null));

      // Nothing was paid for Feb 15 - Mar 15: neither change charges or credits the days left of
      // it.
      assertThat(up.subscription().sku()).isEqualTo("PRO-MAX");
      assertThat(down.subscription().sku()).isEqualTo("BASIC");
      assertThat(down.subscription().lifecycle().balance()).isNull();
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-skip:1:1");
      assertThat(event(t, HistoryEvent.PLAN_CHANGED).detail())
          .contains("cycle 2 is PAUSED_SKIPPED, not paid: no proration");
      t.runUntil("2028-03-16T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().amount())
          .containsExactly(usd("20.00"), usd("10.00"));
    }
  }

  @Test
  void aChangeAtPeriodEndIsHeldThenAppliedWithTheNextCyclesCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-down", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");

      SubscriptionState held =
          workflow.changePlan(
              new PlanChangeRequest("BASIC", usd("4.99"), Effective.PERIOD_END, null));

      assertThat(held.subscription().sku()).isEqualTo(BillingTestEnvironment.SKU);
      assertThat(held.subscription().lifecycle().pendingChange().effectiveCycle()).isEqualTo(2);
      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(t.fake.reminders().get(1).input().amount()).isEqualTo(usd("4.99"));
      assertThat(t.fake.charges())
          .extracting(c -> c.input().amount())
          .containsExactly(usd("9.99"), usd("4.99"));
      assertAt(event(t, HistoryEvent.PLAN_CHANGED).at(), "2028-02-15T00:00:00Z");
      assertThat(workflow.state().subscription().sku()).isEqualTo("BASIC");
      assertThat(workflow.state().subscription().lifecycle().pendingChange()).isNull();
    }
  }

  @Test
  void whilePastDueOnlyAChangeAtPeriodEndIsAllowed() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-pd", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");

      assertRefused(
          () ->
              workflow.changePlan(
                  new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.NOW, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "subscription is past due; pay the unpaid period first, or change the plan at period end");
      assertRefused(
          () ->
              workflow.changePlan(
                  new PlanChangeRequest(
                      "PRO-MAX", Money.parse("19.99", "EUR"), Effective.PERIOD_END, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "currency must be the subscription's (USD)");
      SubscriptionState held =
          workflow.changePlan(
              new PlanChangeRequest("PRO-MAX", usd("19.99"), Effective.PERIOD_END, null));
      assertThat(held.subscription().lifecycle().pendingChange().effectiveCycle()).isEqualTo(2);
    }
  }

  @Test
  void cancelAtPeriodEndStaysActiveUntilThePaidThroughDateThenEndsWithoutCharging() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-end", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");

      SubscriptionState cancelling =
          workflow.cancel(new CancelRequest("too expensive", "user:ada", true, false));

      assertThat(cancelling.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(cancelling.subscription().lifecycle().cancelsOn())
          .isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(cancelling.subscription().nextPaymentDate()).isNull();
      assertThat(cancelling.subscription().nextReminderDate()).isNull();
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertAt(event(t, HistoryEvent.SUBSCRIPTION_CANCELLED).at(), "2028-02-15T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.reminders()).hasSize(1);
    }
  }

  @Test
  void anImmediateCancelRefundsTheUnusedDaysRoundedDown() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ref", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");

      SubscriptionState cancelled =
          workflow.cancel(new CancelRequest(null, "user:ada", false, true));

      // Jan 20 is used; Jan 21 - Feb 14 are 25 of 31 days: 9.99 * 25 / 31 = 8.056..., down to 8.05.
      assertThat(t.fake.refunds()).extracting(c -> c.input().amount()).containsExactly(usd("8.05"));
      assertThat(t.fake.refunds().get(0).input().transactionId()).isEqualTo("txn_sub-ref_1");
      Period refunded = t.fake.period("sub-ref", 1);
      assertThat(refunded.status()).isEqualTo(PeriodStatus.REFUNDED);
      assertThat(refunded.refunded()).isEqualTo(usd("8.05"));
      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void manualRepaymentCollectsAPeriodLeftUnpaidAfterDunning() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(2), FinalOutcome.LEAVE_UNPAID));
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-pay", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");

      assertRefused(
          () -> workflow.payNow(new PayNowRequest("user:ada")),
          UpdateRejections.PAYMENT_DECLINED,
          "the payment of cycle 1 was declined: Your card was declined.");
      assertThat(t.fake.period("sub-pay", 1).attempts()).isEqualTo(3);
      SubscriptionState paid = workflow.payNow(new PayNowRequest("user:ada"));

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-pay:1:1",
              "charge:sub-pay:1:2",
              "charge:sub-pay:1:3",
              "charge:sub-pay:1:4");
      Period period = t.fake.period("sub-pay", 1);
      assertThat(period.status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(period.transactionId()).isEqualTo("txn_sub-pay_1_4");
      assertThat(event(t, HistoryEvent.PAYMENT_SUCCEEDED).process())
          .isEqualTo(Process.MANUAL_REPAYMENT);
      assertThat(paid.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertRefused(
          () -> workflow.payNow(new PayNowRequest(null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "nothing is owed: no period is unpaid");
    }
  }

  @Test
  void aWaivedPeriodIsForgivenAndCannotBeRefunded() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(2), FinalOutcome.LEAVE_UNPAID));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-w", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);

      SubscriptionState waived = workflow.waivePeriod(new WaiveRequest(1, "goodwill", "user:ops"));

      assertThat(t.fake.period("sub-w", 1).status()).isEqualTo(PeriodStatus.WAIVED);
      assertThat(waived.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertRefused(
          () -> workflow.refundPeriod(new RefundRequest(1, null, null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "period 1 is WAIVED; only a collected period can be refunded");
      assertRefused(
          () -> workflow.waivePeriod(new WaiveRequest(1, null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "period 1 is WAIVED; only an unpaid (ERROR) period can be waived");
      assertRefused(
          () -> workflow.waivePeriod(new WaiveRequest(7, null, null)),
          UpdateRejections.NO_SUCH_PERIOD,
          "subscription sub-w has no period 7");
      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-w:1:1", "charge:sub-w:1:2", "charge:sub-w:2:1");
    }
  }

  @Test
  void refundsArePartialOrTheRestAndNeverMoreThanWasCollected() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-rf", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");

      workflow.refundPeriod(new RefundRequest(1, usd("5.00"), "late delivery", "user:ops"));
      assertRefused(
          () -> workflow.refundPeriod(new RefundRequest(1, usd("5.00"), null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "at most 4.99 USD of period 1 can be refunded");
      workflow.refundPeriod(new RefundRequest(1, null, null, null));

      assertThat(t.fake.refunds())
          .extracting(c -> c.input().amount())
          .containsExactly(usd("5.00"), usd("4.99"));
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().idempotencyKey())
          .doesNotHaveDuplicates();
      Period period = t.fake.period("sub-rf", 1);
      assertThat(period.status()).isEqualTo(PeriodStatus.REFUNDED);
      assertThat(period.refunded()).isEqualTo(usd("9.99"));
      assertRefused(
          () -> workflow.refundPeriod(new RefundRequest(1, null, null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "period 1 is refunded in full already");
    }
  }

  @Test
  void movingTheBillingDayChargesTheAddedDaysWithTheMovedCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bd", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      SubscriptionState moved = workflow.changeBillingDay(new BillingDayChange(20, "user:ada"));

      // Cycle 2 moves from Feb 15 to Feb 20: 5 of the 29 days of Feb 15 - Mar 15 (2028 is a leap
      // year), 9.99 * 5 / 29 = 1.722..., half up 1.72.
      assertThat(moved.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 20));
      assertThat(moved.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2028, 2, 17));
      assertThat(moved.subscription().lifecycle().balance()).isEqualTo(usd("1.72"));
      t.runUntil("2028-03-21T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().amount())
          .containsExactly(usd("9.99"), usd("11.71"), usd("9.99"));
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-02-20T00:00:00Z", "2028-03-20T00:00:00Z"));
      assertThat(t.fake.charges()).extracting(c -> c.input().cycle()).containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void anUnpaidPeriodOlderThanTheStaleAgeBecomesStale() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(2), FinalOutcome.LEAVE_UNPAID, 20));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-old", ON_THE_15TH, "9.99"));
      t.runUntil("2028-02-05T00:00:00Z");

      RecordInput stale = event(t, HistoryEvent.PERIOD_STALE);
      assertAt(stale.at(), "2028-02-04T00:00:00Z");
      assertThat(stale.period().status()).isEqualTo(PeriodStatus.STALE);
      assertThat(stale.period().amount()).isEqualTo(usd("9.99"));
      assertRefused(
          () -> workflow.payNow(new PayNowRequest(null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "nothing is owed: no period is unpaid");
    }
  }

  @Test
  void aCancelledSubscriptionsPeriodIsRefundedByRestartingItsWorkflowFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-after", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.cancel(new CancelRequest("moving", null));
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      // What the API does: update-with-start on the ended workflow's id, from the record.
      SubscriptionWorkflow restarted =
          t.client.newWorkflowStub(
              SubscriptionWorkflow.class,
              io.temporal.client.WorkflowOptions.newBuilder()
                  .setWorkflowId(dev.billing.domain.BillingIds.workflowId("sub-after"))
                  .setTaskQueue(TaskQueues.BILLING)
                  .setWorkflowIdReusePolicy(
                      io.temporal.api.enums.v1.WorkflowIdReusePolicy
                          .WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                  .setWorkflowIdConflictPolicy(
                      io.temporal.api.enums.v1.WorkflowIdConflictPolicy
                          .WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                  .build());
      SubscriptionState refunded =
          io.temporal.client.WorkflowClient.executeUpdateWithStart(
              restarted::refundPeriod,
              new RefundRequest(1, usd("2.00"), "goodwill", "user:ops"),
              io.temporal.client.UpdateOptions.newBuilder(SubscriptionState.class)
                  .setWaitForStage(io.temporal.client.WorkflowUpdateStage.COMPLETED)
                  .build(),
              new io.temporal.client.WithStartWorkflowOperation<>(
                  restarted::run, new SubscriptionInput(ended.subscription(), true)));

      assertThat(refunded.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.fake.refunds()).extracting(c -> c.input().amount()).containsExactly(usd("2.00"));
      assertThat(t.fake.period("sub-after", 1).refunded()).isEqualTo(usd("2.00"));
      assertThat(
              WorkflowStub.fromTyped(restarted)
                  .getResult(SubscriptionState.class)
                  .subscription()
                  .status())
          .isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void aRefusedRefundLeavesThePeriodAsItWas() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-rr", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      t.fake.refundsRefused();
      int writes = t.fake.writes().size();

      assertRefused(
          () -> workflow.refundPeriod(new RefundRequest(1, null, null, null)),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "refund of 9.99 USD for period 1 not made: RefundRefused: charge already refunded in full");
      // Its key was kept before it was sent, and taken off again once the gateway refused it.
      assertThat(t.fake.writes().subList(writes, t.fake.writes().size()))
          .extracting(RecordInput::event)
          .containsExactly(HistoryEvent.REFUND_REQUESTED, HistoryEvent.PAYMENT_FAILED);
      Period period = t.fake.period("sub-rr", 1);
      assertThat(period.status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(period.refunded()).isNull();
      assertThat(period.refunds()).isEmpty();
    }
  }
}
