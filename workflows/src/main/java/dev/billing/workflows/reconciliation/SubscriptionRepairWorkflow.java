package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.ReconciliationSummary;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The drift check of one subscription, found by its key rather than through a window of due dates,
 * with the same report as a {@link ReconciliationWorkflow} run. The API starts one when a change
 * finds the subscription's workflow gone, which is how a subscription with no due date (an
 * open-ended pause) is ever repaired; operators start one with {@code POST /v1/ops/reconciliations}
 * naming the subscription. A type of its own, so a worker that does not know it leaves it alone
 * instead of running something else under its history.
 */
@WorkflowInterface
public interface SubscriptionRepairWorkflow {

  String TYPE = "SubscriptionRepair";

  @WorkflowMethod(name = TYPE)
  ReconciliationSummary run(SubscriptionRepairInput input);

  /** How far the run has got: the report head as it stands. */
  @QueryMethod(name = "progress")
  ReconciliationSummary progress();
}
