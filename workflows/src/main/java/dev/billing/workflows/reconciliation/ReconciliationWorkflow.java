package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.ReconciliationSummary;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One reconciliation run: compares DynamoDB with Temporal (drift), the gateway with the receipts
 * and periods (payments), and the gateway's events with the ones the webhooks stored (missed
 * webhooks), repairs what it safely can, and writes a report. Started every day by a Temporal
 * Schedule (or, on a server without Schedules, as a cron workflow), with the missed-webhook check
 * alone several times a day by a second one, and on demand by {@code POST /v1/ops/reconciliations}.
 */
@WorkflowInterface
public interface ReconciliationWorkflow {

  String TYPE = "Reconciliation";

  @WorkflowMethod(name = TYPE)
  ReconciliationSummary run(ReconciliationInput input);

  /** How far the run has got: the report head as it stands. */
  @QueryMethod(name = "progress")
  ReconciliationSummary progress();
}
