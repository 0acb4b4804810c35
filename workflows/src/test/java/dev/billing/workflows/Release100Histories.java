package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DueInstants;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;

/**
 * The scenarios 1.0.0's checked-in histories were recorded from ({@code histories/1.0.0/}), kept to
 * show how each was made. A released history is never recorded again: {@link HistoryFiles} only
 * adds missing files.
 */
final class Release100Histories {
  private Release100Histories() {}

  static void record(HistoryFiles files) throws Exception {
    recordMidnightSchedule(files);
    BillingSchedule newYork =
        new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      t.start(BillingTestEnvironment.requested("sub-history-dunning", newYork, "19.90")).created();
      t.runUntil("2028-02-25T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      files.write(t.client, "sub-history-dunning", runs.get(0), "created-declined-dunning.json");
      files.write(t.client, "sub-history-dunning", runs.get(1), "dunning-recovered.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.CANCEL));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-lost", newYork, "19.90"));
      workflow.created();
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-lost", null, "dunning-cancelled.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-ach", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-23T00:00:00Z");
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_sb_0001",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-history-ach",
              1,
              "charge:sub-history-ach:1:1",
              "txn_sub-history-ach_1",
              null,
              null,
              Instant.parse("2028-01-23T00:00:00Z")));
      t.runUntil("2028-02-25T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      files.write(t.client, "sub-history-ach", runs.get(0), "created-pending.json");
      files.write(t.client, "sub-history-ach", runs.get(1), "settled-by-event.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // The charge went through but the call timed out and the gateway could not be asked at once.
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      t.start(BillingTestEnvironment.requested("sub-history-lag", newYork, "19.90")).created();
      t.runUntil("2028-01-25T00:00:00Z");
      files.write(
          t.client,
          "sub-history-lag",
          t.fake.charges().get(0).runId(),
          "unknown-outcome-looked-up.json");
      files.write(t.client, "sub-history-lag", null, "unknown-outcome-resent.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // A new card during dunning is recorded and retried at once.
      t.fake.declineToken(BillingTestEnvironment.CARD.token());
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-card", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-20T12:00:00Z");
      workflow.changePaymentMethod(
          new PaymentMethodChange(
              new PaymentMethod("pm_card_mastercard", "Mastercard •••• 4444"), "user:ada"));
      t.runUntil("2028-02-10T00:00:00Z");
      files.write(t.client, "sub-history-card", null, "payment-method-changed.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Cancelled while a bank debit settles: the settlement still gets its receipt.
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-late", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-21T00:00:00Z");
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_sb_0002",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-history-late",
              1,
              "charge:sub-history-late:1:1",
              "txn_sub-history-late_1",
              null,
              null,
              Instant.parse("2028-01-23T00:00:00Z")));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-late", null, "settled-after-cancel.json");
      // Two days later the bank returns that debit: the ended run starts again from the record.
      t.env.sleep(Duration.ofDays(2));
      List<RecordInput> writes = t.fake.writes();
      Subscription ended = writes.get(writes.size() - 1).next();
      PaymentEvent returned =
          new PaymentEvent(
              "evt_sb_0003",
              "sandbox",
              PaymentEvent.Type.CHARGE_RETURNED,
              "sub-history-late",
              1,
              "charge:sub-history-late:1:1",
              "txn_sub-history-late_1",
              "R01",
              "Insufficient funds",
              Instant.parse("2028-01-25T00:00:00Z"));
      t.startAfterEnd(ended, List.of(t.fake.period("sub-history-late", 1)), returned);
      files.write(t.client, "sub-history-late", null, "return-after-end.json");
    }
    recordLifecycle(files, newYork);
    recordDueInstantSpread(files, newYork.withDueWindow(Duration.ofHours(6)));
    recordBillingDayReminderSpread(files);
    recordReturnAtCollectedAmount(files, newYork);
    recordPaidByCredit(files, newYork);
    recordProratePaidPeriodOnly(files, newYork);
    recordPauseSkipBeforeResume(files);
  }

  /** A schedule without a due window: reminded and charged at midnight, then cancelled. */
  private static void recordMidnightSchedule(HistoryFiles files) throws Exception {
    BillingSchedule newYork =
        new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-plain", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-02-25T00:00:00Z");
      workflow.cancel(new CancelRequest("too expensive", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      List<String> runs = t.fake.charges().stream().map(Call::runId).toList();
      assertThat(runs).hasSize(2);
      files.write(t.client, "sub-history-plain", runs.get(0), "created-reminded-paid.json");
      files.write(t.client, "sub-history-plain", runs.get(1), "cycle-paid.json");
      files.write(t.client, "sub-history-plain", null, "cancelled.json");
    }
  }

  /** February's paused cycle is skipped before the resume due at the same instant. */
  private static void recordPauseSkipBeforeResume(HistoryFiles files) throws Exception {
    BillingSchedule onThe1st =
        new BillingSchedule(YearMonth.of(2027, 1), 1, Term.MONTHLY, "America/New_York", 28);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2026-12-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-feb", onThe1st, "19.90")).created();
      t.runUntil("2027-01-10T00:00:00Z");
      t.existing("sub-history-feb").pause(new PauseRequest(1, null, null, "user:ada"));
      t.runUntil("2027-02-02T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      String skippedIn =
          t.fake.records().stream()
              .filter(
                  r ->
                      r.input().period() != null
                          && r.input().period().status() == PeriodStatus.PAUSED_SKIPPED)
              .map(Call::runId)
              .findFirst()
              .orElseThrow();
      files.write(t.client, "sub-history-feb", skippedIn, "pause-skip-before-resume.json");
    }
  }

  /** An upgrade in a paid period is prorated, one in a period a pause skipped is not. */
  private static void recordProratePaidPeriodOnly(HistoryFiles files, BillingSchedule newYork)
      throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-prorate", newYork, "19.90")).created();
      t.runUntil("2028-01-25T12:00:00Z");
      t.existing("sub-history-prorate")
          .changePlan(
              new PlanChangeRequest(
                  "PRO-MAX",
                  Money.parse("29.90", "USD"),
                  PlanChangeRequest.Effective.NOW,
                  "user:ada"));
      t.existing("sub-history-prorate")
          .pause(new PauseRequest(null, LocalDate.of(2028, 2, 25), null, "user:ada"));
      t.runUntil("2028-02-26T12:00:00Z");
      t.existing("sub-history-prorate")
          .changePlan(
              new PlanChangeRequest(
                  "MAX", Money.parse("39.90", "USD"), PlanChangeRequest.Effective.NOW, "user:ada"));
      assertThat(t.fake.charges()).hasSize(2); // cycle 1 and the first upgrade's difference only
      files.write(
          t.client,
          "sub-history-prorate",
          t.fake.charges().get(1).runId(),
          "prorate-paid-period-only-paid.json");
      files.write(t.client, "sub-history-prorate", null, "prorate-paid-period-only.json");
    }
  }

  /** A cycle the credit covers is recorded paid without a charge. */
  private static void recordPaidByCredit(HistoryFiles files, BillingSchedule newYork)
      throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-credit", newYork, "30.00")).created();
      t.runUntil("2028-01-20T12:00:00Z");
      t.existing("sub-history-credit")
          .changePlan(
              new PlanChangeRequest(
                  "BASIC",
                  Money.parse("10.00", "USD"),
                  PlanChangeRequest.Effective.NOW,
                  "user:ada"));
      t.runUntil("2028-02-21T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      List<String> runs = t.fake.records().stream().map(Call::runId).distinct().toList();
      files.write(t.client, "sub-history-credit", runs.get(runs.size() - 1), "paid-by-credit.json");
    }
  }

  /**
   * A bank debit returned after an upgrade reopens its period at what it collected, not the new
   * price.
   */
  private static void recordReturnAtCollectedAmount(HistoryFiles files, BillingSchedule newYork)
      throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-return", newYork, "19.90")).created();
      t.runUntil("2028-01-21T12:00:00Z");
      t.existing("sub-history-return")
          .changePlan(
              new PlanChangeRequest(
                  "PRO-MAX",
                  Money.parse("29.90", "USD"),
                  PlanChangeRequest.Effective.NOW,
                  "user:ada"));
      t.existing("sub-history-return")
          .paymentEvent(
              new PaymentEvent(
                  "evt_sb_0003",
                  "sandbox",
                  PaymentEvent.Type.CHARGE_RETURNED,
                  "sub-history-return",
                  1,
                  "charge:sub-history-return:1:1",
                  "txn_sub-history-return_1",
                  "R01",
                  "Insufficient funds",
                  Instant.parse("2028-01-22T00:00:00Z")));
      t.runUntil("2028-01-25T00:00:00Z");
      assertThat(t.fake.charges())
          .filteredOn(c -> c.input().idempotencyKey().equals("charge:sub-history-return:1:2"))
          .singleElement()
          .satisfies(c -> assertThat(c.input().amount()).isEqualTo(Money.parse("19.90", "USD")));
      files.write(t.client, "sub-history-return", null, "return-at-collected-amount.json");
    }
  }

  /**
   * A billing-day move on the reminder day, before the subscription's time of day, keeps that
   * reminder. Day 30 -> 31 in April keeps the due date.
   */
  private static void recordBillingDayReminderSpread(HistoryFiles files) throws Exception {
    BillingSchedule april30 =
        new BillingSchedule(
            YearMonth.of(2028, 4), 30, Term.MONTHLY, "America/New_York", 3, Duration.ofHours(6));
    Instant midnight = april30.reminderAt(1);
    Instant reminder = DueInstants.reminderAt(april30, 1, "sub-history-remind");
    assertThat(reminder).isAfter(midnight);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-04-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-remind", april30, "19.90"));
      t.runUntil(midnight.plus(Duration.between(midnight, reminder).dividedBy(2)).toString());
      workflow.changeBillingDay(new BillingDayChange(31, "user:ada"));
      t.runUntil("2028-05-01T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(1);
      files.write(
          t.client,
          "sub-history-remind",
          t.fake.charges().get(0).runId(),
          "billing-day-reminder-kept.json");
    }
  }

  /**
   * Reminders and charges at the subscription's own time of day. Started as the API starts it;
   * sub-history-spread's offset is 03:35:06 after midnight in New York.
   */
  private static void recordDueInstantSpread(HistoryFiles files, BillingSchedule spread)
      throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      var requested = BillingTestEnvironment.requested("sub-history-spread", spread, "19.90");
      t.start(
              requested,
              SubscriptionVisibility.startAttributes(requested, null),
              SubscriptionVisibility.memo(requested))
          .created();
      t.runUntil("2028-02-21T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).toList();
      files.write(t.client, "sub-history-spread", runs.get(0), "spread-created-reminded-paid.json");
      files.write(t.client, "sub-history-spread", runs.get(1), "spread-cycle-paid.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // A billing-day move plans the run again.
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-spread-day", spread, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.changeBillingDay(new BillingDayChange(28, "user:ada"));
      t.runUntil("2028-03-01T00:00:00Z");
      files.write(
          t.client,
          "sub-history-spread-day",
          t.fake.charges().get(1).runId(),
          "spread-billing-day-moved.json");
    }
  }

  /** Pause, plan changes, cancellation at period end, waiver and refund, visibility. */
  private static void recordLifecycle(HistoryFiles files, BillingSchedule newYork)
      throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-pause", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.pause(new PauseRequest(1, null, "travelling", "user:ada"));
      t.runUntil("2028-03-21T00:00:00Z");
      // Runs: created+paid, paused (plans again in the same run) then skipped, resumed+paid.
      List<String> runs = t.fake.records().stream().map(Call::runId).distinct().toList();
      files.write(t.client, "sub-history-pause", runs.get(1), "paused-skipped.json");
      files.write(t.client, "sub-history-pause", runs.get(2), "resumed-paid.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.PAUSE));
      t.fake.declineCycle(1);
      t.start(BillingTestEnvironment.requested("sub-history-dunpause", newYork, "19.90")).created();
      t.runUntil("2028-01-23T00:00:00Z");
      files.write(
          t.client, "sub-history-dunpause", t.fake.charges().get(0).runId(), "dunning-paused.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-plan", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MAX", Money.parse("29.90", "USD"), PlanChangeRequest.Effective.NOW, "user:ada"));
      workflow.changePlan(
          new PlanChangeRequest(
              "BASIC",
              Money.parse("9.90", "USD"),
              PlanChangeRequest.Effective.PERIOD_END,
              "user:ada"));
      t.runUntil("2028-02-21T00:00:00Z");
      files.write(
          t.client, "sub-history-plan", t.fake.charges().get(1).runId(), "plan-changed.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-end", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.cancel(new CancelRequest("too expensive", "user:ada", true, false));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-end", null, "cancel-at-period-end.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.LEAVE_UNPAID));
      t.fake.declineCycle(2);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-waive", newYork, "19.90"));
      t.runUntil("2028-02-25T00:00:00Z");
      workflow.waivePeriod(new WaiveRequest(2, "goodwill", "user:ops"));
      workflow.refundPeriod(
          new RefundRequest(1, Money.parse("5.00", "USD"), "late delivery", "user:ops"));
      files.write(t.client, "sub-history-waive", null, "waived-refunded.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Started as the API starts it (attributes and memo), declined (PastDueSince and the next
      // payment ride on the status upsert, continue-as-new carries them), then cancelled in dunning
      // (the next payment is unset by the status upsert).
      t.fake.declineCycle(1);
      var requested = BillingTestEnvironment.requested("sub-history-vis", newYork, "19.90");
      SubscriptionWorkflow workflow =
          t.start(
              requested,
              SubscriptionVisibility.startAttributes(requested, null),
              SubscriptionVisibility.memo(requested));
      workflow.created();
      t.runUntil("2028-01-22T00:00:00Z");
      String declinedRun = t.fake.charges().get(0).runId();
      workflow.cancel(new CancelRequest("too expensive", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-vis", declinedRun, "visibility-declined.json");
      files.write(t.client, "sub-history-vis", null, "visibility-cancelled.json");
    }
  }
}
