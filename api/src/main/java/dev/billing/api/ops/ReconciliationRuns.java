package dev.billing.api.ops;

import dev.billing.api.errors.ApiProblem;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import dev.billing.workflows.reconciliation.SubscriptionRepairInput;
import dev.billing.workflows.reconciliation.SubscriptionRepairWorkflow;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.converter.DataConverterException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Starts reconciliation runs on demand, beside the daily schedule, and repairs of one subscription.
 */
public final class ReconciliationRuns implements Reconciliations {
  static final String WORKFLOW_ID_PREFIX = "reconciliation-api-";
  static final String REPAIR_ID_PREFIX = "repair-subscription-";

  /** What a run was started for, kept in its memo so a reused Idempotency-Key can be told apart. */
  static final String REQUEST_MEMO = "request";

  private final WorkflowClient client;
  private final String taskQueue;
  private final InstantSource clock;

  public ReconciliationRuns(WorkflowClient client, String taskQueue, InstantSource clock) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.clock = clock;
  }

  /**
   * Starts a run over a window of dates. With an idempotency key the workflow id derives from it,
   * so a retried request finds the run the first one started (running or finished) instead of
   * starting another; the same key with another request is a 409.
   */
  @Override
  public Started start(ReconciliationInput input, String idempotencyKey) {
    String request = Reconciliations.requestOf(input);
    return startOnce(
        idempotencyKey,
        request,
        options ->
            WorkflowClient.start(
                client.newWorkflowStub(ReconciliationWorkflow.class, options)::run, input));
  }

  /**
   * Starts a repair of one subscription for an operator, with the same idempotency as {@link
   * #start}.
   */
  @Override
  public Started start(SubscriptionRepairInput input, String idempotencyKey) {
    String request =
        "subscription "
            + input.accountId()
            + "/"
            + input.subscriptionId()
            + " repair="
            + input.repair();
    return startOnce(
        idempotencyKey,
        request,
        options ->
            WorkflowClient.start(
                client.newWorkflowStub(SubscriptionRepairWorkflow.class, options)::run, input));
  }

  /**
   * The API's repair of a subscription whose workflow a change found gone: at most one per
   * subscription per {@link #REPAIR_WINDOW} (the window is in the workflow id), joined by every
   * request of that window while it runs.
   */
  @Override
  public Repair repair(SubscriptionRepairInput input) {
    long now = clock.instant().getEpochSecond();
    long window = now / REPAIR_WINDOW.toSeconds();
    Duration nextWindow = Duration.ofSeconds((window + 1) * REPAIR_WINDOW.toSeconds() - now);
    String workflowId = REPAIR_ID_PREFIX + input.subscriptionId() + "-" + window;
    SubscriptionRepairWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionRepairWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(workflowId)
                .setTaskQueue(taskQueue)
                .setWorkflowIdConflictPolicy(
                    WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                // A repair whose check failed (the run fails) may be tried again in the same
                // window.
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY)
                .build());
    try {
      WorkflowClient.start(workflow::run, input);
      return new Repair(workflowId, true, nextWindow);
    } catch (WorkflowExecutionAlreadyStarted completed) {
      return new Repair(workflowId, false, nextWindow);
    }
  }

  private Started startOnce(
      String idempotencyKey, String request, Function<WorkflowOptions, WorkflowExecution> start) {
    String workflowId =
        WORKFLOW_ID_PREFIX
            + (idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString());
    WorkflowOptions options =
        WorkflowOptions.newBuilder()
            .setWorkflowId(workflowId)
            .setTaskQueue(taskQueue)
            .setMemo(Map.of(REQUEST_MEMO, request))
            .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
            .setWorkflowIdReusePolicy(
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
            .build();
    try {
      return new Started(workflowId, start.apply(options).getRunId(), true);
    } catch (WorkflowExecutionAlreadyStarted existing) {
      WorkflowExecutionDescription earlier;
      try {
        earlier = client.newUntypedWorkflowStub(workflowId).describe();
      } catch (WorkflowNotFoundException expired) {
        // Gone from retention between the two calls: the key is free again.
        return new Started(workflowId, start.apply(options).getRunId(), true);
      }
      String earlierRequest = requestOf(earlier);
      // Runs started before the memo existed cannot be compared; they are taken as the same
      // request.
      if (earlierRequest != null && !earlierRequest.equals(request)) {
        throw ApiProblem.conflict(
            "idempotency-key-reused",
            "Idempotency key reused with a different request",
            "This Idempotency-Key already started a run for a different request ("
                + earlierRequest
                + "); use a new key for a new run.");
      }
      return new Started(workflowId, earlier.getExecution().getRunId(), false);
    }
  }

  /** The request a run was started for; "unreadable" when its memo holds something else. */
  private static String requestOf(WorkflowExecutionDescription run) {
    try {
      Object request = run.getMemo(REQUEST_MEMO, String.class);
      return request == null ? null : request.toString();
    } catch (DataConverterException notAString) {
      return "unreadable";
    }
  }
}
