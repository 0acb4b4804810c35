package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ReminderMode;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import io.temporal.api.enums.v1.EventType;
import io.temporal.common.SearchAttributes;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What one cycle records, on success and on failure, and what it costs in Temporal actions. */
@Timeout(60)
class SubscriptionWorkflowPaymentTest {

  /** Due on the 15th (UTC), reminder on the 12th. */
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void successfulChargeRecordsReceiptCompletedPeriodAndTheNextCycle() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-ok", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-20T00:00:00Z");

      Call<ChargeInput> charge = t.fake.charges().get(0);
      RecordInput paid = onlyChargeRecord(t);
      assertThat(paid.changeId()).isEqualTo("cycle-1/charge-1");
      assertThat(paid.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(paid.process()).isEqualTo(Process.INITIAL);
      assertThat(paid.actor()).isEqualTo("system");
      assertThat(paid.previous().version()).isEqualTo(2);
      assertThat(paid.next().version()).isEqualTo(3);
      assertThat(paid.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(paid.next().cycle()).isEqualTo(2);
      assertThat(paid.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(paid.next().nextReminderDate()).isEqualTo(LocalDate.of(2028, 2, 12));
      assertThat(paid.next().lastPaymentAt()).isEqualTo(charge.startedAt());
      assertAt(paid.next().lastReminderAt(), "2028-01-12T00:00:00Z");

      Period period = paid.period();
      assertThat(period.cycle()).isEqualTo(1);
      assertThat(period.dueDate()).isEqualTo(LocalDate.of(2028, 1, 15));
      assertThat(period.status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(period.amount()).isEqualTo(new Money(999, "USD"));
      assertThat(period.attempts()).isEqualTo(1);
      assertThat(period.transactionId()).isEqualTo("txn_sub-ok_1");
      assertThat(period.failureCode()).isNull();

      Receipt receipt = paid.receipt();
      assertThat(receipt.cycle()).isEqualTo(1);
      assertThat(receipt.amount()).isEqualTo(new Money(999, "USD"));
      assertThat(receipt.transactionId()).isEqualTo("txn_sub-ok_1");
      assertThat(receipt.processedAt()).isEqualTo(charge.startedAt());
      assertThat(receipt.paymentMask()).isEqualTo("Visa •••• 4242");
      assertThat(receipt.sku()).isEqualTo("PRO-MONTHLY");
      assertThat(receipt.email()).isEqualTo("ada@example.com");
      assertThat(receipt.expiresAt()).as("assigned by the store").isNull();

      assertThat(t.existing("sub-ok").state().lastOutcome())
          .isEqualTo("cycle 2 is next; subscription is ACTIVE");
    }
  }

  @Test
  void declinedChargeRecordsTheErrorAndKeepsBilling() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-dec", ON_THE_15TH, "9.99"));
      workflow.created();

      t.runUntil("2028-01-15T12:00:00Z");

      assertThat(t.fake.charges()).as("a decline is never retried by Temporal").hasSize(1);
      RecordInput failed = onlyChargeRecord(t);
      assertThat(failed.changeId()).isEqualTo("cycle-1/charge-1");
      assertThat(failed.event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);
      assertThat(failed.process()).isEqualTo(Process.INITIAL);
      assertThat(failed.receipt()).isNull();
      assertThat(failed.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(failed.period().failureCode()).isEqualTo("card_declined");
      assertThat(failed.period().failureMessage()).isEqualTo("Your card was declined.");
      assertThat(failed.period().transactionId()).isNull();
      assertThat(failed.period().dueDate()).isEqualTo(LocalDate.of(2028, 1, 15));
      assertThat(failed.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(failed.next().cycle()).isEqualTo(2);
      assertThat(failed.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(failed.next().lastPaymentAt()).isNull();
      assertAt(failed.at(), "2028-01-15T00:00:00Z");

      // Dunning (the default policy: 1, 3, 5 and 7 days after the due date) waits for its retry.
      SubscriptionState state = workflow.state();
      assertThat(state.subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(state.phase()).isEqualTo(Phase.WAITING_FOR_RETRY);
      assertThat(state.waitingUntil()).isEqualTo(Instant.parse("2028-01-16T00:00:00Z"));

      // Every retry is declined too; the next cycle is billed as usual and brings the subscription
      // back to ACTIVE.
      t.runUntil("2028-02-20T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-dec:1:1",
              "charge:sub-dec:1:2",
              "charge:sub-dec:1:3",
              "charge:sub-dec:1:4",
              "charge:sub-dec:1:5",
              "charge:sub-dec:2:1");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void statusSearchAttributeIsUpsertedOnlyOnChangeAndCarriesOverContinueAsNew() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      t.start(BillingTestEnvironment.requested("sub-sa", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-20T00:00:00Z");
      // Now in run 2, which has not upserted anything: these came over from run 1.
      SearchAttributes afterDecline = t.untyped("sub-sa").describe().getTypedSearchAttributes();
      assertThat(afterDecline.get(BillingSearchAttributes.BILLING_STATUS)).isEqualTo("PAST_DUE");
      assertThat(afterDecline.get(BillingSearchAttributes.ACCOUNT_ID)).isEqualTo("acc-7");
      assertThat(afterDecline.get(BillingSearchAttributes.SKU)).isEqualTo("PRO-MONTHLY");

      t.runUntil("2028-03-20T00:00:00Z");
      assertThat(
              t.untyped("sub-sa")
                  .describe()
                  .getTypedSearchAttributes()
                  .get(BillingSearchAttributes.BILLING_STATUS))
          .isEqualTo("ACTIVE");

      // Run 2 also holds the four dunning retries of cycle 1.
      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      assertThat(runs).hasSize(3);
      EventType upsert = EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES;
      assertThat(t.count(t.history("sub-sa", runs.get(0)), upsert))
          .as("run 1: identity and ACTIVE at creation, then PAST_DUE")
          .isEqualTo(2);
      assertThat(t.count(t.history("sub-sa", runs.get(1)), upsert))
          .as("run 2: back to ACTIVE")
          .isEqualTo(1);
      assertThat(t.count(t.history("sub-sa", runs.get(2)), upsert)).as("run 3: unchanged").isZero();
    }
  }

  @Test
  void gatewayStillUnavailableAfterSixCallsIsRecordedAsUnpaid() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.gatewayDown();
      t.start(BillingTestEnvironment.requested("sub-503", ON_THE_15TH, "9.99"));

      // Before the first dunning retry (2028-01-16).
      t.runUntil("2028-01-15T12:00:00Z");

      List<Call<ChargeInput>> calls = t.fake.charges();
      assertThat(calls).extracting(Call::attempt).containsExactly(1, 2, 3, 4, 5, 6);
      assertThat(calls)
          .extracting(c -> c.input().idempotencyKey())
          .containsOnly("charge:sub-503:1:1");
      // Backoff 2, 4, 8, 16, 32 s between the six calls.
      assertAllAt(
          calls.stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-15T00:00:00Z",
              "2028-01-15T00:00:02Z",
              "2028-01-15T00:00:06Z",
              "2028-01-15T00:00:14Z",
              "2028-01-15T00:00:30Z",
              "2028-01-15T00:01:02Z"));
      assertAt(onlyChargeRecord(t).at(), "2028-01-15T00:01:02Z");

      RecordInput failed = onlyChargeRecord(t);
      assertThat(failed.event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);
      assertThat(failed.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(failed.period().failureCode()).isEqualTo("gateway_unavailable");
      assertThat(failed.period().failureMessage())
          .isEqualTo("no answer from the gateway: gateway answered 503");
      assertThat(failed.receipt()).isNull();
      assertThat(failed.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(failed.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
    }
  }

  @Test
  void reminderFailingUntilTheDueInstantDoesNotDelayTheCharge() {
    // Started after the reminder date, 3 minutes before the payment: the late reminder is tried,
    // fails on every attempt, and its retries stop at the due instant.
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-14T23:57:00Z")) {
      t.fake.reminders(ReminderMode.FAIL_RETRYABLE);
      t.start(BillingTestEnvironment.requested("sub-mute", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-16T00:00:00Z");

      List<Instant> reminderCalls = t.fake.reminders().stream().map(Call::startedAt).toList();
      assertThat(reminderCalls)
          .hasSizeGreaterThan(3)
          .allMatch(at -> at.isBefore(Instant.parse("2028-01-15T00:00:00Z")));
      assertThat(t.fake.charges()).hasSize(1);
      assertAt(t.fake.charges().get(0).startedAt(), "2028-01-15T00:00:00Z");

      RecordInput paid = onlyChargeRecord(t);
      assertThat(paid.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(paid.next().lastReminderAt()).isNull();
      // The failed reminder's version (2) counts as used: had it been stored, this still wins.
      assertThat(paid.next().version()).isEqualTo(3);
    }
  }

  @Test
  void reminderRejectedForGoodStillLetsTheChargeHappenOnTime() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.reminders(ReminderMode.FAIL_NON_RETRYABLE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bounce", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-13T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(1);
      SubscriptionState waiting = workflow.state();
      assertThat(waiting.phase()).isEqualTo(Phase.WAITING_FOR_PAYMENT);
      assertThat(waiting.waitingUntil()).isEqualTo(Instant.parse("2028-01-15T00:00:00Z"));
      assertThat(waiting.lastOutcome())
          .isEqualTo("cycle 1 reminder failed (mailbox does not exist); billing anyway");

      t.runUntil("2028-01-16T00:00:00Z");
      assertAt(t.fake.charges().get(0).startedAt(), "2028-01-15T00:00:00Z");
      assertThat(onlyChargeRecord(t).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
    }
  }

  @Test
  void lateReminderStillGoesOutBeforeTheDueInstant() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-13T12:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-late", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-16T00:00:00Z");

      assertThat(t.fake.reminders()).hasSize(1);
      assertAt(t.fake.reminders().get(0).startedAt(), "2028-01-13T12:00:00Z");
      assertThat(t.fake.reminders().get(0).input().messageId())
          .isEqualTo("<reminder.1.sub-late@billing>");
      assertThat(t.fake.reminders().get(0).input().paymentDate())
          .isEqualTo(LocalDate.of(2028, 1, 15));
      assertAt(t.fake.charges().get(0).startedAt(), "2028-01-15T00:00:00Z");
    }
  }

  @Test
  void noReminderWhenThePaymentIsAlreadyDueOrRemindersAreOff() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-15T06:00:00Z")) {
      // Already due: charged at once, no reminder.
      t.start(BillingTestEnvironment.requested("sub-due", ON_THE_15TH, "9.99"));
      // Reminders off: only the payment timer.
      t.start(
          BillingTestEnvironment.requested(
              "sub-quiet",
              new BillingSchedule(YearMonth.of(2028, 2), 1, Term.MONTHLY, "UTC", 0),
              "5.00"));

      t.runUntil("2028-02-02T00:00:00Z");

      assertThat(t.fake.reminders()).isEmpty();
      List<Call<ChargeInput>> charges = t.fake.charges();
      assertThat(charges)
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-due:1:1", "charge:sub-quiet:1:1");
      assertAt(charges.get(0).startedAt(), "2028-01-15T06:00:00Z");
      assertAt(charges.get(1).startedAt(), "2028-02-01T00:00:00Z");
      String quietRun = charges.get(1).runId();
      assertThat(t.count(t.history("sub-quiet", quietRun), EventType.EVENT_TYPE_TIMER_STARTED))
          .isEqualTo(1);
    }
  }

  @Test
  void aHappyCycleCostsTwoTimersThreeActivitiesAndOneContinueAsNew() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-cost", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-20T00:00:00Z");

      // Run 2 is a plain cycle (run 1 also records the creation).
      String cycle2Run = t.fake.charges().get(1).runId();
      List<io.temporal.api.history.v1.HistoryEvent> events = t.history("sub-cost", cycle2Run);
      assertThat(t.count(events, EventType.EVENT_TYPE_TIMER_STARTED)).isEqualTo(2);
      assertThat(t.count(events, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).isEqualTo(3);
      assertThat(t.count(events, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW))
          .isEqualTo(1);
      assertThat(t.count(events, EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)).isZero();
      assertThat(t.count(events, EventType.EVENT_TYPE_TIMER_CANCELED)).isZero();
      // No version marker and no local activity (the dunning policy) on the happy path.
      assertThat(t.count(events, EventType.EVENT_TYPE_MARKER_RECORDED)).isZero();
      assertThat(events)
          .extracting(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName())
          .filteredOn(name -> !name.isEmpty())
          .containsExactly("SendPaymentReminder", "ChargePaymentMethod", "RecordChange");
    }
  }

  private static RecordInput onlyChargeRecord(BillingTestEnvironment t) {
    List<RecordInput> charged =
        t.fake.records().stream()
            .map(Call::input)
            .filter(r -> r.changeId().equals("cycle-1/charge-1"))
            .toList();
    assertThat(charged).hasSize(1);
    return charged.get(0);
  }
}
