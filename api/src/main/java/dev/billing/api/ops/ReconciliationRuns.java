package dev.billing.api.ops;

import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.ReconciliationTarget;
import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import java.util.UUID;

/** Starts reconciliation runs on demand, beside the daily schedule. */
public final class ReconciliationRuns {
  static final String WORKFLOW_ID_PREFIX = "reconciliation-api-";
  static final String SUBSCRIPTION_PREFIX = "reconciliation-subscription-";

  private final WorkflowClient client;
  private final String taskQueue;

  public ReconciliationRuns(WorkflowClient client, String taskQueue) {
    this.client = client;
    this.taskQueue = taskQueue;
  }

  /**
   * @param workflowId the run's workflow id; null when a new one is made
   * @param reportId the run's id, which is also its report's
   * @param started false when an earlier request with the same Idempotency-Key started it
   */
  public record Started(String workflowId, String reportId, boolean started) {}

  /**
   * Starts a run that checks and repairs one subscription, unless one for it is running already
   * (every caller that finds the workflow gone gets that run). A finished one does not stop a new
   * one: the workflow may be lost again later.
   *
   * @return the run's workflow id
   */
  public String repair(ReconciliationTarget subscription, String trigger) {
    String workflowId = SUBSCRIPTION_PREFIX + subscription.subscriptionId();
    ReconciliationWorkflow workflow = client.newWorkflowStub(ReconciliationWorkflow.class,
        WorkflowOptions.newBuilder()
            .setWorkflowId(workflowId)
            .setTaskQueue(taskQueue)
            .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
            .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
            .build());
    WorkflowClient.start(workflow::run, ReconciliationInput.of(subscription, trigger));
    return workflowId;
  }

  /**
   * Starts a run. With an idempotency key the workflow id derives from it, so a retried request
   * finds the run the first one started (running or finished) instead of starting another.
   */
  public Started start(ReconciliationInput input, String idempotencyKey) {
    String workflowId = WORKFLOW_ID_PREFIX
        + (idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString());
    ReconciliationWorkflow workflow = client.newWorkflowStub(ReconciliationWorkflow.class,
        WorkflowOptions.newBuilder()
            .setWorkflowId(workflowId)
            .setTaskQueue(taskQueue)
            .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
            .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
            .build());
    try {
      WorkflowExecution execution = WorkflowClient.start(workflow::run, input);
      return new Started(workflowId, execution.getRunId(), true);
    } catch (WorkflowExecutionAlreadyStarted existing) {
      String runId = client.newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
      return new Started(workflowId, runId, false);
    }
  }
}
