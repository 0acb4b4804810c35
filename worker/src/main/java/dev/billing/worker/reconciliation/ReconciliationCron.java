package dev.billing.worker.reconciliation;

import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;

/**
 * The fallback where the server has no Schedules (the Java test server of the embedded dev stack):
 * the same workflow as a cron workflow, one per job (the daily run, the webhook poll). Temporal
 * starts each run at the cron time, after the previous run of the same id has ended; one workflow
 * id holds them all. Not visible as a schedule in the UI, and changing the cron or the look-back
 * means terminating the workflow so the next worker start creates it again (docs/operations.md).
 */
public final class ReconciliationCron {
  private ReconciliationCron() {}

  static WorkflowOptions options(ReconciliationJob job, String taskQueue) {
    return WorkflowOptions.newBuilder()
        .setWorkflowId(job.id())
        .setTaskQueue(taskQueue)
        .setCronSchedule(job.cron())
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
        .build();
  }

  /**
   * @return "started", or "already running" when an earlier start (or another worker) made it
   */
  static String ensure(WorkflowClient client, ReconciliationJob job, String taskQueue) {
    ReconciliationWorkflow workflow =
        client.newWorkflowStub(ReconciliationWorkflow.class, options(job, taskQueue));
    try {
      WorkflowClient.start(workflow::run, job.input("cron"));
      return "started";
    } catch (WorkflowExecutionAlreadyStarted running) {
      return "already running";
    }
  }
}
