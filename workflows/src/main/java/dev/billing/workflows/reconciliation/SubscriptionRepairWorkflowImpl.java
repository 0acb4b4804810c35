package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.activities.SubscriptionCheckInput;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.slf4j.Logger;

/**
 * Opens the report, runs CheckSubscription once, closes the report: three activities. A check that
 * fails after its retries is in the report (PARTIAL) and then fails the run, so the API may start
 * another repair at once instead of waiting for the next window.
 */
public class SubscriptionRepairWorkflowImpl implements SubscriptionRepairWorkflow {

  private static final Logger log = Workflow.getLogger(SubscriptionRepairWorkflowImpl.class);

  private final ReconciliationActivities steps =
      Workflow.newActivityStub(ReconciliationActivities.class, ReconciliationActivityOptions.CHECK);
  private final ReconciliationActivities report =
      Workflow.newActivityStub(
          ReconciliationActivities.class, ReconciliationActivityOptions.REPORT);

  private ReconciliationSummary progress;

  @Override
  public ReconciliationSummary run(SubscriptionRepairInput input) {
    if (!input.namesASubscription()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "a subscription repair names its accountId and subscriptionId; got " + input,
          "InvalidInput");
    }
    Instant asOf = Instant.ofEpochMilli(Workflow.currentTimeMillis());
    LocalDate today = LocalDate.ofInstant(asOf, ZoneOffset.UTC);
    String reportId = Workflow.getInfo().getRunId();
    progress =
        new ReconciliationSummary(
            reportId,
            Workflow.getInfo().getWorkflowId(),
            input.trigger(),
            ReconciliationSummary.Status.RUNNING,
            asOf,
            null,
            today,
            today,
            input.repair(),
            ReconciliationCounts.ZERO,
            null);
    report.openReport(progress);
    log.info(
        "repair {} of subscription {} started (trigger {}, repair {})",
        reportId,
        input.subscriptionId(),
        input.trigger(),
        input.repair());
    try {
      CheckResult result =
          steps.checkSubscription(
              new SubscriptionCheckInput(
                  reportId, input.accountId(), input.subscriptionId(), asOf, input.repair()));
      progress = progress.withCounts(progress.counts().plus(Check.DRIFT, result));
    } catch (ActivityFailure failure) {
      String reason = ReconciliationWorkflowImpl.reasonOf(failure);
      log.warn("repair of subscription {} failed: {}", input.subscriptionId(), reason);
      progress =
          progress.withFailedStep("CheckSubscription " + input.subscriptionId() + ": " + reason);
    }
    progress = progress.finished(Instant.ofEpochMilli(Workflow.currentTimeMillis()));
    report.closeReport(progress);
    if (!progress.failedSteps().isEmpty()) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the check of subscription "
              + input.subscriptionId()
              + " failed: "
              + progress.failedSteps().get(0)
              + " (report "
              + reportId
              + ")",
          "RepairFailed");
    }
    return progress;
  }

  @Override
  public ReconciliationSummary progress() {
    return progress;
  }
}
