package dev.billing.workflows.activities;

import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The steps of a reconciliation run. Each check step writes its findings into the run's report
 * itself (one item per finding, keyed so that a retried step rewrites the same items) and returns
 * only counts, so the workflow's history stays small however much is found. Every repair is
 * idempotent: a restart refuses a running workflow, a receipt is a conditional put, an event is
 * stored once and the workflow ignores a signal it has seen.
 */
@ActivityInterface
public interface ReconciliationActivities {

  /** Writes the report head with status RUNNING. */
  @ActivityMethod(name = "OpenReconciliationReport")
  void openReport(ReconciliationSummary summary);

  /**
   * The subscriptions GSI-2 lists as due on the window's dates, page by page: each record compared
   * with its workflow (DescribeWorkflowExecution), a missing or closed one restarted from the
   * record, an overdue one diagnosed and sent the gateway's outcome of its charge.
   */
  @ActivityMethod(name = "CheckDueSubscriptions")
  CheckResult checkDueSubscriptions(WindowCheckInput input);

  /**
   * One subscription, read by its key, given the same checks as one from GSI-2: restarted from the
   * record when its workflow is gone, its status compared, an overdue payment diagnosed. Called by
   * {@link dev.billing.workflows.reconciliation.SubscriptionRepairWorkflow}.
   */
  @ActivityMethod(name = "CheckSubscription")
  CheckResult checkSubscription(SubscriptionCheckInput input);

  /** The gateway's charges of the window's UTC days against the periods and receipts. */
  @ActivityMethod(name = "CompareGatewayCharges")
  CheckResult compareGatewayCharges(WindowCheckInput input);

  /**
   * The gateway's events of the window's UTC days against the payment-events table; missing ones
   * replayed.
   */
  @ActivityMethod(name = "ReplayMissedWebhooks")
  CheckResult replayMissedWebhooks(WindowCheckInput input);

  /** Writes the final report head (COMPLETED or PARTIAL, counts, failed steps). */
  @ActivityMethod(name = "CloseReconciliationReport")
  void closeReport(ReconciliationSummary summary);
}
