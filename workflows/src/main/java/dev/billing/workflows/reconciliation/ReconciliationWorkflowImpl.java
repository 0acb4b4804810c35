package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.activities.WindowCheckInput;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Runs the input's checks over the window: all three, in the order drift, payments, webhooks, or
 * some of them (the webhook poll runs only the last, several times a day). Each check is one
 * activity call on a quiet day and a few more on a busy one (a call stops after a bounded amount of
 * work and returns a cursor), and the history holds counts only (findings go straight to the
 * report): about five activities a run. A check that fails after its retries is noted in the report
 * and the run goes on: one gateway outage must not hide the drift findings.
 *
 * <p>A long run (a large book, a thirty-day look-back) continues as new after {@value
 * #CALLS_PER_RUN} calls, or earlier when Temporal suggests it, carrying the report head, the check
 * and its cursor: the history stays small and the report is the same one.
 *
 * <p>The drift check reads one day more than the window, tomorrow (UTC): in a zone ahead of UTC
 * (Asia, Oceania) a subscription due "tomorrow" is already due now.
 */
public class ReconciliationWorkflowImpl implements ReconciliationWorkflow {

  /**
   * Check calls per execution: each adds about six history events, so a run stays far below 10k.
   */
  static final int CALLS_PER_RUN = 100;

  private static final Logger log = Workflow.getLogger(ReconciliationWorkflowImpl.class);

  private final ReconciliationActivities steps =
      Workflow.newActivityStub(ReconciliationActivities.class, ReconciliationActivityOptions.CHECK);
  private final ReconciliationActivities report =
      Workflow.newActivityStub(
          ReconciliationActivities.class, ReconciliationActivityOptions.REPORT);

  private ReconciliationSummary progress;
  private ReconciliationInput input;
  private int calls;

  @Override
  public ReconciliationSummary run(ReconciliationInput input) {
    this.input = input;
    ReconciliationResume resume = input.resume();
    if (resume == null) {
      Instant asOf = Instant.ofEpochMilli(Workflow.currentTimeMillis());
      LocalDate today = LocalDate.ofInstant(asOf, ZoneOffset.UTC);
      LocalDate from = today.minusDays(input.lookbackDays());
      progress =
          new ReconciliationSummary(
              Workflow.getInfo().getRunId(),
              Workflow.getInfo().getWorkflowId(),
              input.trigger(),
              ReconciliationSummary.Status.RUNNING,
              asOf,
              null,
              from,
              today,
              input.repair(),
              ReconciliationCounts.ZERO,
              null);
      report.openReport(progress);
      log.info(
          "reconciliation {} of {} to {} started (trigger {}, checks {}, repair {})",
          progress.reportId(),
          from,
          today,
          input.trigger(),
          input.checks(),
          input.repair());
    } else {
      progress = resume.summary();
      log.info(
          "reconciliation {} goes on at {} from {}",
          progress.reportId(),
          resume.check(),
          resume.cursor());
    }

    List<Check> order = input.checks();
    Check first = resume == null ? order.get(0) : resume.check();
    for (Check check : order.subList(order.indexOf(first), order.size())) {
      String cursor = resume != null && check == resume.check() ? resume.cursor() : null;
      switch (check) {
        case DRIFT ->
            check(
                check,
                "CheckDueSubscriptions",
                progress.to().plusDays(1),
                cursor,
                steps::checkDueSubscriptions);
        case PAYMENTS ->
            check(
                check,
                "CompareGatewayCharges",
                progress.to(),
                cursor,
                steps::compareGatewayCharges);
        case WEBHOOKS ->
            check(
                check, "ReplayMissedWebhooks", progress.to(), cursor, steps::replayMissedWebhooks);
      }
    }

    progress = progress.finished(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
    report.closeReport(progress);
    log.info(
        "reconciliation {} {}: {} findings, {} repaired, {} repairs failed",
        progress.reportId(),
        progress.status(),
        progress.counts().totalFindings(),
        progress.counts().repaired(),
        progress.counts().repairsFailed());
    return progress;
  }

  @Override
  public ReconciliationSummary progress() {
    return progress;
  }

  /**
   * Runs one check over the window, call after call until its cursor runs out; each call's counts
   * are added. A call that fails after its retries is noted with where it stopped, and the check
   * ends there: the next check still runs.
   */
  private void check(
      Check check,
      String name,
      LocalDate to,
      String cursor,
      Function<WindowCheckInput, CheckResult> step) {
    LocalDate from = progress.from();
    do {
      continueAsNewIfLong(check, cursor);
      WindowCheckInput call =
          new WindowCheckInput(
              progress.reportId(), from, to, cursor, progress.startedAt(), input.repair());
      try {
        calls++;
        CheckResult result = step.apply(call);
        progress = progress.withCounts(progress.counts().plus(check, result));
        cursor = result.nextCursor();
      } catch (ActivityFailure failure) {
        String reason = reasonOf(failure);
        String where = cursor == null ? from + ".." + to : "from " + cursor;
        log.warn("reconciliation step {} ({}) failed: {}", name, where, reason);
        progress = progress.withFailedStep(name + " " + where + ": " + reason);
        return;
      }
    } while (cursor != null);
  }

  private void continueAsNewIfLong(Check check, String cursor) {
    if (calls >= CALLS_PER_RUN || (calls > 0 && Workflow.getInfo().isContinueAsNewSuggested())) {
      log.info(
          "reconciliation {} continues as new at {} from {} after {} calls",
          progress.reportId(),
          check,
          cursor,
          calls);
      Workflow.continueAsNew(input.resumingAt(new ReconciliationResume(progress, check, cursor)));
    }
  }

  static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal
        ? temporal.getOriginalMessage()
        : cause.getMessage();
  }
}
