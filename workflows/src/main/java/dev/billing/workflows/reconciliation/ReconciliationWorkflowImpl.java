package dev.billing.workflows.reconciliation;

import dev.billing.workflows.activities.CheckResult;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.activities.WindowCheckInput;
import dev.billing.workflows.reconciliation.FindingKind.Check;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * Runs the three checks over the window. Each check is one activity call on a quiet day and a few
 * more on a busy one (a call stops after a bounded amount of work and returns a cursor), and the
 * history holds counts only (findings go straight to the report): about five activities a run. A
 * check that fails after its retries is noted in the report and the run goes on: one gateway outage
 * must not hide the drift findings. Short-lived (one run per day), so it never continues as new.
 *
 * <p>The drift check reads one day more than the window, tomorrow (UTC): in a zone ahead of UTC
 * (Asia, Oceania) a subscription due "tomorrow" is already due now.
 */
public class ReconciliationWorkflowImpl implements ReconciliationWorkflow {

  private static final Logger log = Workflow.getLogger(ReconciliationWorkflowImpl.class);

  private final ReconciliationActivities steps = Workflow.newActivityStub(
      ReconciliationActivities.class, ReconciliationActivityOptions.CHECK);
  private final ReconciliationActivities report = Workflow.newActivityStub(
      ReconciliationActivities.class, ReconciliationActivityOptions.REPORT);

  private ReconciliationSummary progress;

  @Override
  public ReconciliationSummary run(ReconciliationInput input) {
    Instant asOf = Instant.ofEpochMilli(Workflow.currentTimeMillis());
    LocalDate today = LocalDate.ofInstant(asOf, ZoneOffset.UTC);
    LocalDate from = today.minusDays(input.lookbackDays());
    String reportId = Workflow.getInfo().getRunId();
    progress = new ReconciliationSummary(reportId, Workflow.getInfo().getWorkflowId(),
        input.trigger(), ReconciliationSummary.Status.RUNNING, asOf, null, from, today,
        input.repair(), ReconciliationCounts.ZERO, null);
    report.openReport(progress);
    log.info("reconciliation {} of {} to {} started (trigger {}, repair {})", reportId, from, today,
        input.trigger(), input.repair());

    LocalDate tomorrow = today.plusDays(1);
    check(Check.DRIFT, "CheckDueSubscriptions", from, tomorrow, asOf, input.repair(),
        steps::checkDueSubscriptions);
    check(Check.PAYMENTS, "CompareGatewayCharges", from, today, asOf, input.repair(),
        steps::compareGatewayCharges);
    check(Check.WEBHOOKS, "ReplayMissedWebhooks", from, today, asOf, input.repair(),
        steps::replayMissedWebhooks);

    progress = progress.finished(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
    report.closeReport(progress);
    log.info("reconciliation {} {}: {} findings, {} repaired, {} repairs failed", reportId,
        progress.status(), progress.counts().totalFindings(), progress.counts().repaired(),
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
  private void check(Check check, String name, LocalDate from, LocalDate to, Instant asOf,
      boolean repair, Function<WindowCheckInput, CheckResult> step) {
    String cursor = null;
    do {
      WindowCheckInput call = new WindowCheckInput(progress.reportId(), from, to, cursor, asOf, repair);
      try {
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

  static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal ? temporal.getOriginalMessage() : cause.getMessage();
  }
}
