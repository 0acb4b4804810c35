package dev.billing.workflows.reconciliation;

import dev.billing.workflows.activities.CheckResult;
import dev.billing.workflows.activities.DayCheckInput;
import dev.billing.workflows.activities.DueCheckInput;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.reconciliation.FindingKind.Check;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Runs the three checks over the window, day by day and page by page, so each activity is bounded
 * and the history holds counts only (findings go straight to the report). A step that fails after
 * its retries is noted in the report and the run goes on: one gateway outage must not hide the drift
 * findings. Short-lived (one run per day), so it never continues as new.
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

    for (LocalDate date = from; !date.isAfter(today.plusDays(1)); date = date.plusDays(1)) {
      String cursor = null;
      do {
        DueCheckInput page = new DueCheckInput(reportId, date, cursor, asOf, input.repair());
        CheckResult result = step(Check.DRIFT, "CheckDueSubscriptions " + date,
            () -> steps.checkDueSubscriptions(page));
        cursor = result == null ? null : result.nextCursor();
      } while (cursor != null);
    }
    for (LocalDate day = from; !day.isAfter(today); day = day.plusDays(1)) {
      DayCheckInput check = new DayCheckInput(reportId, day, asOf, input.repair());
      step(Check.PAYMENTS, "CompareGatewayCharges " + day, () -> steps.compareGatewayCharges(check));
    }
    for (LocalDate day = from; !day.isAfter(today); day = day.plusDays(1)) {
      DayCheckInput check = new DayCheckInput(reportId, day, asOf, input.repair());
      step(Check.WEBHOOKS, "ReplayMissedWebhooks " + day, () -> steps.replayMissedWebhooks(check));
    }

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

  /** Runs one step; its counts are added, or its failure noted. Null when it failed. */
  private CheckResult step(Check check, String name, Supplier<CheckResult> call) {
    try {
      CheckResult result = call.get();
      progress = progress.withCounts(progress.counts().plus(check, result));
      return result;
    } catch (ActivityFailure failure) {
      String reason = reasonOf(failure);
      log.warn("reconciliation step {} failed: {}", name, reason);
      progress = progress.withFailedStep(name + ": " + reason);
      return null;
    }
  }

  private static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal ? temporal.getOriginalMessage() : cause.getMessage();
  }
}
