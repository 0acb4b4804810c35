package dev.billing.worker.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.PageRequest;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both scheduling paths with what runs here: the cron fallback for real on the test server (which
 * has no Schedules), the Schedule path against a recording schedule client. Each path holds two
 * jobs, the daily run and the missed-webhook poll.
 */
@Timeout(120)
class ReconciliationSchedulingTest {
  private static final String DAILY_ID = "billing-reconciliation";
  private static final String POLL_ID = "billing-webhook-poll";

  /** The daily run alone, so that it is the one finding the missed webhook. */
  private static final ReconciliationSettings DAILY =
      new ReconciliationSettings(true, "0 3 * * *", 2, DAILY_ID, WebhookPollSettings.off());

  private static final ReconciliationSettings DAILY_AND_POLL =
      new ReconciliationSettings(
          true,
          "0 3 * * *",
          2,
          DAILY_ID,
          new WebhookPollSettings(true, "15 */4 * * *", 1, POLL_ID));

  @Test
  void onTheTestServerTheDailyRunIsACronWorkflowThatFindsAndRepairsDrift() {
    try (ReconciliationTestStack stack =
        new ReconciliationTestStack(Instant.parse("2026-03-02T02:00:00Z"))) {
      stack.recordLostSubscription("sub-lost");

      ReconciliationScheduling scheduling =
          ReconciliationScheduling.of(stack.client(), TaskQueues.BILLING, DAILY);
      scheduling.start();
      assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.CRON);
      scheduling.start(); // a second worker start finds it running
      assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.CRON);
      assertThat(scheduling.outcomes()).containsExactly(Map.entry(DAILY_ID, "already running"));

      stack.env.sleep(Duration.ofHours(26)); // 03:00 on the 2nd and on the 3rd
      List<ReconciliationSummary> runs = stack.awaitReports(2);

      assertThat(runs)
          .extracting(
              ReconciliationSummary::trigger,
              ReconciliationSummary::status,
              ReconciliationSummary::from,
              ReconciliationSummary::to)
          .containsExactly(
              tuple(
                  "cron",
                  ReconciliationSummary.Status.COMPLETED,
                  LocalDate.of(2026, 3, 1),
                  LocalDate.of(2026, 3, 3)),
              tuple(
                  "cron",
                  ReconciliationSummary.Status.COMPLETED,
                  LocalDate.of(2026, 2, 28),
                  LocalDate.of(2026, 3, 2)));
      ReconciliationSummary first = runs.get(1);
      assertThat(first.workflowId()).isEqualTo(DAILY_ID);
      assertThat(first.counts().findings())
          .containsExactly(Map.entry(FindingKind.WORKFLOW_MISSING, 1));
      assertThat(
              stack.reports.findings(first.reportId(), stack.now(), PageRequest.first(10)).items())
          .extracting(Finding::subscriptionId, Finding::repair)
          .containsExactly(tuple("sub-lost", Repair.WORKFLOW_RESTARTED));
      // The restarted workflow charged the overdue cycle at once. Nothing relays the sandbox's
      // webhooks in this test, so the next run finds that charge's event missing and replays it.
      assertThat(stack.sandbox.charges())
          .extracting(c -> c.idempotencyKey())
          .containsExactly("charge:sub-lost:1:1");
      assertThat(runs.get(0).counts().findings())
          .containsExactly(Map.entry(FindingKind.WEBHOOK_MISSED, 1));
      assertThat(runs.get(0).counts().repaired()).isEqualTo(1);
      assertThat(stack.counted)
          .extracting(Finding::kind)
          .containsExactly(FindingKind.WORKFLOW_MISSING, FindingKind.WEBHOOK_MISSED);
    }
  }

  @Test
  void onTheTestServerThePollIsASecondCronWorkflowThatReplaysAMissedWebhookWithinHours() {
    try (ReconciliationTestStack stack =
        new ReconciliationTestStack(Instant.parse("2026-03-02T02:00:00Z"))) {
      stack.recordLostSubscription("sub-lost");

      ReconciliationScheduling scheduling =
          ReconciliationScheduling.of(stack.client(), TaskQueues.BILLING, DAILY_AND_POLL);
      scheduling.start();
      assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.CRON);
      assertThat(scheduling.outcomes())
          .containsExactly(Map.entry(DAILY_ID, "started"), Map.entry(POLL_ID, "started"));
      // A restarted worker (a new instance, the same settings) finds both running.
      ReconciliationScheduling restarted =
          ReconciliationScheduling.of(stack.client(), TaskQueues.BILLING, DAILY_AND_POLL);
      restarted.start();
      assertThat(restarted.outcomes())
          .containsExactly(
              Map.entry(DAILY_ID, "already running"), Map.entry(POLL_ID, "already running"));
      // Two workflows side by side: neither waits for the other's runs.
      assertThat(stack.status(DAILY_ID))
          .isEqualTo(stack.status(POLL_ID))
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);

      // 03:00 the daily run restarts sub-lost, which charges at once; 04:15 the poll.
      stack.env.sleep(Duration.ofHours(3));
      List<ReconciliationSummary> runs = stack.awaitReports(2);

      assertThat(runs)
          .extracting(
              ReconciliationSummary::workflowId,
              ReconciliationSummary::trigger,
              ReconciliationSummary::from,
              ReconciliationSummary::to)
          .containsExactly(
              tuple(POLL_ID, "cron:webhooks", LocalDate.of(2026, 3, 1), LocalDate.of(2026, 3, 2)),
              tuple(DAILY_ID, "cron", LocalDate.of(2026, 2, 28), LocalDate.of(2026, 3, 2)));
      ReconciliationSummary poll = runs.get(0);
      assertThat(poll.startedAt()).isAfterOrEqualTo(Instant.parse("2026-03-02T04:15:00Z"));
      assertThat(poll.status()).isEqualTo(ReconciliationSummary.Status.COMPLETED);
      assertThat(poll.counts().subscriptionsChecked()).as("no drift check").isZero();
      assertThat(poll.counts().chargesCompared()).as("no payments check").isZero();
      assertThat(poll.counts().eventsCompared()).isEqualTo(1);
      assertThat(poll.counts().findings())
          .containsExactly(Map.entry(FindingKind.WEBHOOK_MISSED, 1));
      assertThat(
              stack.reports.findings(poll.reportId(), stack.now(), PageRequest.first(10)).items())
          .extracting(Finding::subscriptionId, Finding::repair)
          .containsExactly(tuple("sub-lost", Repair.EVENT_REPLAYED));
      assertThat(runs.get(1).counts().findings())
          .containsExactly(Map.entry(FindingKind.WORKFLOW_MISSING, 1));
    }
  }

  @Test
  void whereSchedulesExistOneScheduleIsCreatedThenKeptInStepWithTheConfigurationButNotUnpaused() {
    RecordingSchedules recording = new RecordingSchedules();
    ReconciliationScheduling scheduling =
        new ReconciliationScheduling(null, "billing", DAILY, () -> true, recording::client);

    scheduling.start();
    assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.SCHEDULE);
    assertThat(recording.createdIds).containsExactly(DAILY_ID);
    Schedule schedule = recording.created(DAILY_ID);
    assertThat(schedule.getSpec().getCronExpressions()).containsExactly("0 3 * * *");
    assertThat(schedule.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
    assertThat(schedule.getPolicy().getCatchupWindow()).isEqualTo(Duration.ofDays(1));
    assertThat(schedule.getState().isPaused()).isFalse();
    ScheduleActionStartWorkflow action = (ScheduleActionStartWorkflow) schedule.getAction();
    assertThat(action.getWorkflowType()).isEqualTo(ReconciliationWorkflow.TYPE);
    assertThat(action.getOptions().getTaskQueue()).isEqualTo("billing");
    assertThat(action.getOptions().getWorkflowId()).isEqualTo(DAILY_ID);
    assertThat(inputOf(schedule))
        .isEqualTo(new ReconciliationInput(2, true, "schedule", ReconciliationInput.ALL_CHECKS));

    // The next start: it exists (and an operator paused it in the UI); the new cron applies, the
    // pause stays.
    recording.exists = true;
    ReconciliationSettings hourly =
        new ReconciliationSettings(true, "0 * * * *", 2, DAILY_ID, WebhookPollSettings.off());
    new ReconciliationScheduling(null, "billing", hourly, () -> true, recording::client).start();
    Schedule update = recording.updated(DAILY_ID, schedule, pausedByOps());
    assertThat(update.getSpec().getCronExpressions()).containsExactly("0 * * * *");
    assertThat(update.getState().isPaused()).isTrue();
    assertThat(update.getState().getNote()).isEqualTo("paused by ops");
  }

  @Test
  void thePollIsASecondScheduleThatSkipsOnlyWhileItsOwnPreviousRunRuns() {
    RecordingSchedules recording = new RecordingSchedules();
    ReconciliationScheduling scheduling =
        new ReconciliationScheduling(
            null, "billing", ReconciliationSettings.defaults(), () -> true, recording::client);

    scheduling.start();

    assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.SCHEDULE);
    assertThat(recording.createdIds).containsExactly(DAILY_ID, POLL_ID);
    assertThat(scheduling.outcomes())
        .containsExactly(Map.entry(DAILY_ID, "created"), Map.entry(POLL_ID, "created"));
    Schedule poll = recording.created(POLL_ID);
    assertThat(poll.getSpec().getCronExpressions()).containsExactly("15 */4 * * *");
    // Overlap is per schedule: a poll skips while the previous poll runs, never for the daily run,
    // whose runs carry another workflow id.
    assertThat(poll.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
    assertThat(poll.getPolicy().getCatchupWindow()).isEqualTo(Duration.ofHours(4));
    assertThat(poll.getState().isPaused()).isFalse();
    assertThat(poll.getState().getNote()).startsWith("Missed-webhook poll");
    ScheduleActionStartWorkflow action = (ScheduleActionStartWorkflow) poll.getAction();
    assertThat(action.getWorkflowType()).isEqualTo(ReconciliationWorkflow.TYPE);
    assertThat(action.getOptions().getWorkflowId()).isEqualTo(POLL_ID);
    assertThat(action.getOptions().getTaskQueue()).isEqualTo("billing");
    ReconciliationInput input = inputOf(poll);
    assertThat(input.checks()).containsExactly(Check.WEBHOOKS);
    assertThat(input.trigger()).isEqualTo("schedule:webhooks");
    assertThat(input.lookbackDays()).isEqualTo(1);
    assertThat(input.repair()).isTrue();
    assertThat(inputOf(recording.created(DAILY_ID)).checks())
        .containsExactly(Check.DRIFT, Check.PAYMENTS, Check.WEBHOOKS);

    // A restart with another poll cron: both schedules updated; the poll's new cron applies and
    // an operator's pause stays.
    recording.exists = true;
    ReconciliationScheduling restarted =
        new ReconciliationScheduling(
            null,
            "billing",
            ReconciliationSettings.defaults()
                .withWebhookPoll(new WebhookPollSettings(true, "45 */2 * * *", 2, null)),
            () -> true,
            recording::client);
    restarted.start();
    assertThat(restarted.outcomes())
        .containsExactly(Map.entry(DAILY_ID, "updated"), Map.entry(POLL_ID, "updated"));
    assertThat(recording.createdIds).as("nothing created twice").hasSize(2);
    Schedule updated = recording.updated(POLL_ID, poll, pausedByOps());
    assertThat(updated.getSpec().getCronExpressions()).containsExactly("45 */2 * * *");
    assertThat(updated.getState().isPaused()).isTrue();
    assertThat(inputOf(updated).lookbackDays()).isEqualTo(2);
    assertThat(inputOf(recording.updated(DAILY_ID, recording.created(DAILY_ID), pausedByOps())))
        .isEqualTo(new ReconciliationInput(3, true, "schedule"));
  }

  @Test
  void eachJobHasItsOwnFlagAndNeitherEnabledSchedulesNothing() {
    RecordingSchedules pollOnly = new RecordingSchedules();
    ReconciliationScheduling onlyPoll =
        new ReconciliationScheduling(
            null,
            "billing",
            new ReconciliationSettings(false, null, null, null, null),
            () -> true,
            pollOnly::client);
    onlyPoll.start();
    assertThat(onlyPoll.mode()).isEqualTo(ReconciliationScheduling.Mode.SCHEDULE);
    assertThat(pollOnly.createdIds).containsExactly(POLL_ID);

    RecordingSchedules dailyOnly = new RecordingSchedules();
    new ReconciliationScheduling(
            null,
            "billing",
            ReconciliationSettings.defaults().withWebhookPoll(WebhookPollSettings.off()),
            () -> true,
            dailyOnly::client)
        .start();
    assertThat(dailyOnly.createdIds).containsExactly(DAILY_ID);

    RecordingSchedules none = new RecordingSchedules();
    ReconciliationScheduling off =
        new ReconciliationScheduling(
            null,
            "billing",
            new ReconciliationSettings(false, null, null, null, WebhookPollSettings.off()),
            () -> {
              throw new AssertionError("nothing to schedule: the server is not even asked");
            },
            none::client);
    off.start();
    assertThat(off.mode()).isEqualTo(ReconciliationScheduling.Mode.DISABLED);
    assertThat(off.outcomes()).isEmpty();
    assertThat(none.createdIds).isEmpty();
  }

  @Test
  void settingsTemporalCannotRunAreRefusedAtStartUp() {
    assertThatThrownBy(() -> new ReconciliationSettings(true, "@every 5s", 3, null))
        .hasMessageContaining("reconciliation.cron must have five fields");
    assertThatThrownBy(() -> new ReconciliationSettings(true, null, 0, null))
        .hasMessage("lookbackDays must be between 1 and 30, got 0");
    assertThatThrownBy(() -> new WebhookPollSettings(true, "*/4 * * *", null, null))
        .hasMessageContaining("reconciliation.webhookPoll.cron must have five fields");
    assertThatThrownBy(() -> new WebhookPollSettings(true, null, 31, null))
        .hasMessage("lookbackDays must be between 1 and 30, got 31");
    assertThatThrownBy(
            () ->
                new ReconciliationSettings(
                    true,
                    null,
                    null,
                    "ops-recon",
                    new WebhookPollSettings(null, null, null, "ops-recon")))
        .hasMessageContaining("webhookPoll.scheduleId must differ from reconciliation.scheduleId");
    assertThat(WebhookPollSettings.defaults())
        .isEqualTo(new WebhookPollSettings(true, "15 */4 * * *", 1, POLL_ID));
  }

  private static ReconciliationInput inputOf(Schedule schedule) {
    return ((ScheduleActionStartWorkflow) schedule.getAction())
        .getArguments()
        .get(0, ReconciliationInput.class);
  }

  private static ScheduleState pausedByOps() {
    return ScheduleState.newBuilder().setPaused(true).setNote("paused by ops").build();
  }
}
