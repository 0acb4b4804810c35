package dev.billing.workflows;

import static dev.billing.workflows.Refusals.assertRefused;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeInput;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reactivation on the test server: 9.99 USD on the 31st in Paris from January 2028 (a leap year:
 * cycle 2 is due Feb 29, whose midnight is 2028-02-28T23:00Z; cycle 3 Mar 31, in summer time from
 * Mar 26, so 2028-03-30T22:00Z). Cycle 1 is charged on Jan 31.
 */
@Timeout(60)
class SubscriptionReactivationTest {

  private static final BillingSchedule PARIS_31ST =
      new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
  private static final String SUB = "sub-back";

  private static SubscriptionWorkflow started(BillingTestEnvironment t) {
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested(SUB, PARIS_31ST, "9.99"));
    workflow.created();
    return workflow;
  }

  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  private static List<Period> periods(BillingTestEnvironment t) {
    return java.util.stream.LongStream.rangeClosed(1, record(t).cycle())
        .mapToObj(c -> t.fake.period(SUB, c))
        .filter(java.util.Objects::nonNull)
        .toList();
  }

  /** Polled in small steps: awaiting the result would let the test server skip years ahead. */
  private static void awaitEnded(BillingTestEnvironment t) {
    while (t.untyped(SUB).describe().getStatus()
        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      t.env.sleep(java.time.Duration.ofSeconds(1));
    }
  }

  private static List<RecordInput> reactivations(BillingTestEnvironment t) {
    return t.fake.writes().stream()
        .filter(w -> w.event() == HistoryEvent.SUBSCRIPTION_REACTIVATED)
        .toList();
  }

  private static void assertCharged(Call<ChargeInput> charge, long cycle, String at) {
    assertThat(charge.input().cycle()).isEqualTo(cycle);
    assertThat(charge.input().attempt()).isEqualTo(1);
    assertThat(charge.input().amount()).isEqualTo(Money.parse("9.99", "USD"));
    assertThat(charge.input().idempotencyKey()).isEqualTo("charge:" + SUB + ":" + cycle + ":1");
    assertAt(charge.startedAt(), at);
  }

  @Test
  void cancelledNowAndReactivatedInThePaidPeriodBillsAgainOnItsNextDueDateWithNoChargeNow() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = started(t);
      t.runUntil("2028-02-10T09:00:00Z");
      workflow.cancel(new CancelRequest("moving", "user:ada"));
      awaitEnded(t);
      t.runUntil("2028-02-20T10:00:00Z");
      assertThat(record(t).status()).isEqualTo(SubscriptionStatus.CANCELLED);

      SubscriptionState back =
          t.reactivateAfterEnd(
              record(t), periods(t), new ReactivateRequest(null, "user:ada", "reactivate-1"));

      Subscription sub = back.subscription();
      assertThat(sub.status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(sub.cycle()).isEqualTo(2);
      assertThat(sub.nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 29));
      assertThat(sub.nextReminderDate()).isEqualTo(LocalDate.of(2028, 2, 26));
      assertThat(t.fake.charges()).as("the paid period is not charged again").hasSize(1);
      RecordInput reactivated = reactivations(t).get(0);
      assertThat(reactivated.process()).isEqualTo(Process.API);
      assertThat(reactivated.actor()).isEqualTo("user:ada");
      assertThat(reactivated.previous().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(reactivated.detail())
          .isEqualTo("reactivated: billing restarts with cycle 2 due 2028-02-29");

      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      assertCharged(t.fake.charges().get(1), 2, "2028-02-28T23:00:00Z");
      assertAt(t.fake.reminders().get(1).startedAt(), "2028-02-25T23:00:00Z");
      assertThat(record(t).cycle()).isEqualTo(3);
      assertThat(record(t).nextPaymentDate()).isEqualTo(LocalDate.of(2028, 3, 31));

      // A retry of the same request, after the run continued as new: the first answer, once.
      SubscriptionState again =
          t.existing(SUB).reactivate(new ReactivateRequest(null, "user:ada", "reactivate-1"));
      assertThat(again.lastOutcome()).isEqualTo(back.lastOutcome());
      assertThat(reactivations(t)).hasSize(1);
    }
  }

  @Test
  void aCancellationAtPeriodEndIsTakenBackAndTheNextPeriodIsCharged() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = started(t);
      t.runUntil("2028-02-10T09:00:00Z");
      SubscriptionState cancelling =
          workflow.cancel(new CancelRequest("later", "user:ada", true, false));
      assertThat(cancelling.subscription().lifecycle().cancelsOn())
          .isEqualTo(LocalDate.of(2028, 2, 29));

      SubscriptionState back =
          workflow.reactivate(new ReactivateRequest("staying after all", "user:ada", "undo-1"));

      assertThat(back.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(back.subscription().lifecycle().cancelsOn()).isNull();
      assertThat(back.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 29));
      assertThat(back.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2028, 2, 26));
      assertThat(reactivations(t).get(0).detail())
          .isEqualTo(
              "cancellation on 2028-02-29 taken back: cycle 2 due 2028-02-29 is billed: staying after all");

      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      assertCharged(t.fake.charges().get(1), 2, "2028-02-28T23:00:00Z");
      assertThat(record(t).status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.writes())
          .extracting(RecordInput::event)
          .doesNotContain(HistoryEvent.SUBSCRIPTION_CANCELLED);
    }
  }

  @Test
  void endedAtPeriodEndAndReactivatedLaterBillsFromTheFirstDueDateAfterIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = started(t);
      t.runUntil("2028-02-10T09:00:00Z");
      workflow.cancel(new CancelRequest("later", "user:ada", true, false));
      t.runUntil("2028-03-05T10:00:00Z");
      awaitEnded(t);
      assertThat(record(t).status()).isEqualTo(SubscriptionStatus.CANCELLED);

      SubscriptionState back =
          t.reactivateAfterEnd(
              record(t), periods(t), new ReactivateRequest(null, "user:ada", "back-1"));

      assertThat(back.subscription().cycle()).isEqualTo(3);
      assertThat(back.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 3, 31));
      assertThat(reactivations(t).get(0).detail())
          .isEqualTo(
              "reactivated: billing restarts with cycle 3 due 2028-03-31 (cycles 2-2 fell due"
                  + " while cancelled: not billed)");
      t.runUntil("2028-04-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      assertCharged(t.fake.charges().get(1), 3, "2028-03-30T22:00:00Z");
    }
  }

  @Test
  void anEndedRunStillOpenIsReactivatedInPlaceAndChargesTheCycleDueToday() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = started(t);
      t.runUntil("2028-02-10T09:00:00Z");
      workflow.cancel(new CancelRequest("later", "user:ada", true, false));
      // The cancellation notice at the period's end keeps the ended run open while it retries.
      t.runUntil("2028-02-28T22:00:00Z");
      t.fake.mailServerDown(true);
      t.runUntil("2028-02-28T23:02:00Z");
      assertThat(record(t).status()).isEqualTo(SubscriptionStatus.CANCELLED);
      List<Call<RecordInput>> records = t.fake.records();
      String endedRun = records.get(records.size() - 1).runId();

      SubscriptionState back =
          t.reactivateAfterEnd(
              record(t), periods(t), new ReactivateRequest(null, "user:ada", "now-1"));
      t.fake.mailServerDown(false);

      assertThat(back.subscription().cycle()).isEqualTo(2);
      assertThat(back.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      t.runUntil("2028-02-29T00:00:00Z");
      // Feb 29 began in Paris before the reactivation: cycle 2 is charged at once, by the same run.
      assertThat(t.fake.charges()).hasSize(2);
      assertCharged(t.fake.charges().get(1), 2, "2028-02-28T23:02:00Z");
      assertThat(t.fake.charges().get(1).runId()).isEqualTo(endedRun);
      assertThat(t.untyped(SUB).describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    }
  }

  @Test
  void aSubscriptionNotCancelledOrWithMoneyStillMovingIsRefused() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = started(t);
      assertRefused(
          () -> t.existing(SUB).reactivate(new ReactivateRequest(null, "user:ada", "early")),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "subscription is not cancelled");

      // Cycle 1 is a bank debit still settling when it is cancelled: the ended run stays open,
      // settle-only, until it settles.
      t.runUntil("2028-02-10T09:00:00Z");
      t.fake.script(2, ChargeMode.PENDING);
      t.runUntil("2028-02-29T10:00:00Z");
      workflow.cancel(new CancelRequest("moving", "user:ada"));

      assertRefused(
          () ->
              t.reactivateAfterEnd(
                  record(t), periods(t), new ReactivateRequest(null, "user:ada", "while-settling")),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "a payment of the cancelled subscription has no final outcome yet; reactivate it once"
              + " it has");
      assertThat(reactivations(t)).isEmpty();
    }
  }
}
