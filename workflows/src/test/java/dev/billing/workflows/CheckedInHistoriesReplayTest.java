package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Term;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.DueInstants;
import dev.billing.domain.DunningPolicy;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Histories recorded from released workflow code, checked in, replayed against the current code. A
 * change to the workflow that would break running subscriptions fails here; guard such a change
 * with Workflow.getVersion and record new histories next to the old ones (never replace them).
 *
 * <p>Record: {@code ./mvnw -pl workflows test -Dtest=CheckedInHistoriesReplayTest -Dbilling.recordHistories=true}
 */
@Timeout(60)
class CheckedInHistoriesReplayTest {

  private static final Path DIR = Path.of("src/test/resources/histories");

  @Test
  void everyCheckedInHistoryReplaysAgainstTheCurrentCode() throws Exception {
    List<Path> files;
    try (Stream<Path> listing = Files.list(DIR)) {
      files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files).extracting(p -> p.getFileName().toString()).contains(
        "v1-created-reminded-paid.json", "v1-created-declined.json", "v1-paid.json", "v1-cancelled.json",
        "v2-created-declined-dunning.json", "v2-dunning-recovered.json", "v2-dunning-cancelled.json",
        "v2-created-pending.json", "v2-settled-by-event.json", "v2-unknown-outcome-looked-up.json",
        "v2-unknown-outcome-resent.json",
        "v2-payment-method-changed.json", "v2-settled-after-cancel.json",
        "v3-paused-skipped.json", "v3-resumed-paid.json", "v3-dunning-paused.json",
        "v3-plan-changed.json", "v3-cancel-at-period-end.json", "v3-waived-refunded.json",
        "v3-visibility-declined.json", "v3-visibility-cancelled.json",
        "v4-spread-created-reminded-paid.json", "v4-spread-cycle-paid.json",
        "v4-spread-billing-day-moved.json", "v5-billing-day-reminder-kept.json",
        "v6-return-at-collected-amount.json", "v6-paid-by-credit.json",
        "v6-prorate-paid-period-only-paid.json", "v6-prorate-paid-period-only.json",
        "v6-pause-skip-before-resume.json");
    List<String> failed = new java.util.ArrayList<>();
    for (Path file : files) {
      try {
        WorkflowReplayer.replayWorkflowExecution(Files.readString(file), SubscriptionWorkflowImpl.class);
      } catch (Exception e) {
        failed.add(file.getFileName() + ": " + e.getClass().getSimpleName() + ": "
            + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
      }
    }
    assertThat(failed).as("histories that no longer replay").isEmpty();
  }

  /**
   * Records the v2 histories (dunning, settlement). The v1 files were recorded by this method as it
   * was at commit 8a3f7b8, from the code before dunning existed; today's code would record v2
   * commands for those scenarios, so they are not re-recorded here (and {@link #write} never
   * replaces a file).
   */
  @Test
  @EnabledIfSystemProperty(named = "billing.recordHistories", matches = "true")
  void record() throws Exception {
    BillingSchedule newYork = new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      t.start(BillingTestEnvironment.requested("sub-history-dunning", newYork, "19.90")).created();
      t.runUntil("2028-02-25T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      write(t.client, "sub-history-dunning", runs.get(0), "v2-created-declined-dunning.json");
      write(t.client, "sub-history-dunning", runs.get(1), "v2-dunning-recovered.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.CANCEL));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-lost", newYork, "19.90"));
      workflow.created();
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      write(t.client, "sub-history-lost", null, "v2-dunning-cancelled.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-ach", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-23T00:00:00Z");
      workflow.paymentEvent(new PaymentEvent("evt_sb_0001", "sandbox", PaymentEvent.Type.CHARGE_SUCCEEDED,
          "sub-history-ach", 1, "charge:sub-history-ach:1:1", "txn_sub-history-ach_1", null, null,
          Instant.parse("2028-01-23T00:00:00Z")));
      t.runUntil("2028-02-25T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).distinct().toList();
      write(t.client, "sub-history-ach", runs.get(0), "v2-created-pending.json");
      write(t.client, "sub-history-ach", runs.get(1), "v2-settled-by-event.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // The charge went through but the call timed out and the gateway could not be asked at once.
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      t.start(BillingTestEnvironment.requested("sub-history-lag", newYork, "19.90")).created();
      t.runUntil("2028-01-25T00:00:00Z");
      write(t.client, "sub-history-lag", t.fake.charges().get(0).runId(), "v2-unknown-outcome-looked-up.json");
      write(t.client, "sub-history-lag", null, "v2-unknown-outcome-resent.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // A new card during dunning is recorded and retried at once.
      t.fake.declineToken(BillingTestEnvironment.CARD.token());
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-card", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-20T12:00:00Z");
      workflow.changePaymentMethod(new PaymentMethodChange(
          new PaymentMethod("pm_card_mastercard", "Mastercard •••• 4444"), "user:ada"));
      t.runUntil("2028-02-10T00:00:00Z");
      write(t.client, "sub-history-card", null, "v2-payment-method-changed.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Cancelled while a bank debit settles: the settlement still gets its receipt.
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-late", newYork, "19.90"));
      workflow.created();
      t.runUntil("2028-01-21T00:00:00Z");
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      workflow.paymentEvent(new PaymentEvent("evt_sb_0002", "sandbox", PaymentEvent.Type.CHARGE_SUCCEEDED,
          "sub-history-late", 1, "charge:sub-history-late:1:1", "txn_sub-history-late_1", null, null,
          Instant.parse("2028-01-23T00:00:00Z")));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      write(t.client, "sub-history-late", null, "v2-settled-after-cancel.json");
    }
    recordLifecycle(newYork);
    recordDueInstantSpread(newYork.withDueWindow(Duration.ofHours(6)));
    recordBillingDayReminderSpread();
    recordReturnAtCollectedAmount(newYork);
    recordPaidByCredit(newYork);
    recordProratePaidPeriodOnly(newYork);
    recordPauseSkipBeforeResume();
  }

  /** The v6 history: February's paused cycle is skipped before the resume due at the same instant. */
  private static void recordPauseSkipBeforeResume() throws Exception {
    BillingSchedule onThe1st = new BillingSchedule(YearMonth.of(2027, 1), 1, Term.MONTHLY, "America/New_York", 28);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2026-12-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-feb", onThe1st, "19.90")).created();
      t.runUntil("2027-01-10T00:00:00Z");
      t.existing("sub-history-feb").pause(new PauseRequest(1, null, null, "user:ada"));
      t.runUntil("2027-02-02T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      String skippedIn = t.fake.records().stream()
          .filter(r -> r.input().period() != null && r.input().period().status() == PeriodStatus.PAUSED_SKIPPED)
          .map(Call::runId).findFirst().orElseThrow();
      write(t.client, "sub-history-feb", skippedIn, "v6-pause-skip-before-resume.json");
    }
  }

  /**
   * The v6 history: plan changes now read the running period first (prorate-paid-period-only): an
   * upgrade in a paid period is prorated, one in a period a pause skipped is not.
   */
  private static void recordProratePaidPeriodOnly(BillingSchedule newYork) throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-prorate", newYork, "19.90")).created();
      t.runUntil("2028-01-25T12:00:00Z");
      t.existing("sub-history-prorate").changePlan(new PlanChangeRequest("PRO-MAX", Money.parse("29.90", "USD"),
          PlanChangeRequest.Effective.NOW, "user:ada"));
      t.existing("sub-history-prorate").pause(new PauseRequest(null, LocalDate.of(2028, 2, 25), null, "user:ada"));
      t.runUntil("2028-02-26T12:00:00Z");
      t.existing("sub-history-prorate").changePlan(new PlanChangeRequest("MAX", Money.parse("39.90", "USD"),
          PlanChangeRequest.Effective.NOW, "user:ada"));
      assertThat(t.fake.charges()).hasSize(2); // cycle 1 and the first upgrade's difference only
      write(t.client, "sub-history-prorate", t.fake.charges().get(1).runId(), "v6-prorate-paid-period-only-paid.json");
      write(t.client, "sub-history-prorate", null, "v6-prorate-paid-period-only.json");
    }
  }

  /** The v6 history: a cycle the credit covers is recorded paid without a charge (paid-by-credit). */
  private static void recordPaidByCredit(BillingSchedule newYork) throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-credit", newYork, "30.00")).created();
      t.runUntil("2028-01-20T12:00:00Z");
      t.existing("sub-history-credit").changePlan(new PlanChangeRequest("BASIC", Money.parse("10.00", "USD"),
          PlanChangeRequest.Effective.NOW, "user:ada"));
      t.runUntil("2028-02-21T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      List<String> runs = t.fake.records().stream().map(Call::runId).distinct().toList();
      write(t.client, "sub-history-credit", runs.get(runs.size() - 1), "v6-paid-by-credit.json");
    }
  }

  /**
   * The v6 history: a bank debit returned after an upgrade reopens its period at what it collected
   * (return-at-collected-amount), not at the new price.
   */
  private static void recordReturnAtCollectedAmount(BillingSchedule newYork) throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-history-return", newYork, "19.90")).created();
      t.runUntil("2028-01-21T12:00:00Z");
      t.existing("sub-history-return").changePlan(new PlanChangeRequest("PRO-MAX", Money.parse("29.90", "USD"),
          PlanChangeRequest.Effective.NOW, "user:ada"));
      t.existing("sub-history-return").paymentEvent(new PaymentEvent("evt_sb_0003", "sandbox",
          PaymentEvent.Type.CHARGE_RETURNED, "sub-history-return", 1, "charge:sub-history-return:1:1",
          "txn_sub-history-return_1", "R01", "Insufficient funds", Instant.parse("2028-01-22T00:00:00Z")));
      t.runUntil("2028-01-25T00:00:00Z");
      assertThat(t.fake.charges()).filteredOn(c -> c.input().idempotencyKey().equals("charge:sub-history-return:1:2"))
          .singleElement().satisfies(c -> assertThat(c.input().amount()).isEqualTo(Money.parse("19.90", "USD")));
      write(t.client, "sub-history-return", null, "v6-return-at-collected-amount.json");
    }
  }

  /**
   * The v5 history: a billing-day move on the reminder day, before the subscription's time of day,
   * keeps that reminder (billing-day-reminder-spread). Day 30 -> 31 in April keeps the due date.
   */
  private static void recordBillingDayReminderSpread() throws Exception {
    BillingSchedule april30 = new BillingSchedule(YearMonth.of(2028, 4), 30, Term.MONTHLY, "America/New_York", 3,
        Duration.ofHours(6));
    Instant midnight = april30.reminderAt(1);
    Instant reminder = DueInstants.reminderAt(april30, 1, "sub-history-remind");
    assertThat(reminder).isAfter(midnight);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-04-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-remind", april30, "19.90"));
      t.runUntil(midnight.plus(Duration.between(midnight, reminder).dividedBy(2)).toString());
      workflow.changeBillingDay(new BillingDayChange(31, "user:ada"));
      t.runUntil("2028-05-01T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(1);
      write(t.client, "sub-history-remind", t.fake.charges().get(0).runId(), "v5-billing-day-reminder-kept.json");
    }
  }

  /**
   * The v4 histories: reminders and charges at the subscription's own time of day
   * (due-instant-spread, issue 7). Started as the API starts it; sub-history-spread's offset is
   * 03:35:06 after midnight in New York.
   */
  private static void recordDueInstantSpread(BillingSchedule spread) throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      var requested = BillingTestEnvironment.requested("sub-history-spread", spread, "19.90");
      t.start(requested, SubscriptionVisibility.startAttributes(requested, null),
          SubscriptionVisibility.memo(requested)).created();
      t.runUntil("2028-02-21T00:00:00Z");
      List<String> runs = t.fake.charges().stream().map(Call::runId).toList();
      write(t.client, "sub-history-spread", runs.get(0), "v4-spread-created-reminded-paid.json");
      write(t.client, "sub-history-spread", runs.get(1), "v4-spread-cycle-paid.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // A billing-day move plans the run again: the version is asked again, recorded once.
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-spread-day", spread, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.changeBillingDay(new BillingDayChange(28, "user:ada"));
      t.runUntil("2028-03-01T00:00:00Z");
      write(t.client, "sub-history-spread-day", t.fake.charges().get(1).runId(), "v4-spread-billing-day-moved.json");
    }
  }

  /** The v3 histories: the lifecycle changes (issue 3). */
  private static void recordLifecycle(BillingSchedule newYork) throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-pause", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.pause(new PauseRequest(1, null, "travelling", "user:ada"));
      t.runUntil("2028-03-21T00:00:00Z");
      // Runs: created+paid, paused (plans again in the same run) then skipped, resumed+paid.
      List<String> runs = t.fake.records().stream().map(Call::runId).distinct().toList();
      write(t.client, "sub-history-pause", runs.get(1), "v3-paused-skipped.json");
      write(t.client, "sub-history-pause", runs.get(2), "v3-resumed-paid.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.PAUSE));
      t.fake.declineCycle(1);
      t.start(BillingTestEnvironment.requested("sub-history-dunpause", newYork, "19.90")).created();
      t.runUntil("2028-01-23T00:00:00Z");
      write(t.client, "sub-history-dunpause", t.fake.charges().get(0).runId(), "v3-dunning-paused.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-plan", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.changePlan(new PlanChangeRequest("PRO-MAX", Money.parse("29.90", "USD"),
          PlanChangeRequest.Effective.NOW, "user:ada"));
      workflow.changePlan(new PlanChangeRequest("BASIC", Money.parse("9.90", "USD"),
          PlanChangeRequest.Effective.PERIOD_END, "user:ada"));
      t.runUntil("2028-02-21T00:00:00Z");
      write(t.client, "sub-history-plan", t.fake.charges().get(1).runId(), "v3-plan-changed.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-end", newYork, "19.90"));
      t.runUntil("2028-01-25T00:00:00Z");
      workflow.cancel(new CancelRequest("too expensive", "user:ada", true, false));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      write(t.client, "sub-history-end", null, "v3-cancel-at-period-end.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), DunningPolicy.FinalOutcome.LEAVE_UNPAID));
      t.fake.declineCycle(2);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history-waive", newYork, "19.90"));
      t.runUntil("2028-02-25T00:00:00Z");
      workflow.waivePeriod(new WaiveRequest(2, "goodwill", "user:ops"));
      workflow.refundPeriod(new RefundRequest(1, Money.parse("5.00", "USD"), "late delivery", "user:ops"));
      write(t.client, "sub-history-waive", null, "v3-waived-refunded.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Started as the API starts it (attributes and memo), declined (PastDueSince and the next
      // payment ride on the status upsert, continue-as-new carries them), then cancelled in dunning
      // (the next payment is unset by the status upsert).
      t.fake.declineCycle(1);
      var requested = BillingTestEnvironment.requested("sub-history-vis", newYork, "19.90");
      SubscriptionWorkflow workflow = t.start(requested,
          SubscriptionVisibility.startAttributes(requested, null), SubscriptionVisibility.memo(requested));
      workflow.created();
      t.runUntil("2028-01-22T00:00:00Z");
      String declinedRun = t.fake.charges().get(0).runId();
      workflow.cancel(new CancelRequest("too expensive", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      write(t.client, "sub-history-vis", declinedRun, "v3-visibility-declined.json");
      write(t.client, "sub-history-vis", null, "v3-visibility-cancelled.json");
    }
  }

  private static void write(WorkflowClient client, String subscriptionId, String runId, String file)
      throws IOException {
    WorkflowExecutionHistory history = runId == null
        ? client.fetchHistory(BillingIds.workflowId(subscriptionId))
        : client.fetchHistory(BillingIds.workflowId(subscriptionId), runId);
    Files.createDirectories(DIR);
    if (Files.exists(DIR.resolve(file))) {
      return; // checked-in histories are never replaced: record mode only adds missing ones
    }
    Files.writeString(DIR.resolve(file), history.toJson(true));
  }
}
