package dev.billing.api.subscriptions;

import dev.billing.api.errors.ApiProblem;
import dev.billing.workflows.UpdateRejections;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionWorkflow;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ApplicationFailure;

/** The API's side of the subscription workflow: start it, cancel it. */
public final class SubscriptionWorkflows {

  /**
   * How long a create waits for the workflow to record the subscription. The SDK's call has no
   * overall deadline (it waits as long as no worker polls), so it runs on a small bounded pool.
   */
  static final Duration CREATE_WAIT = Duration.ofSeconds(10);
  private static final int MAX_CONCURRENT_CREATES = 64;

  private final WorkflowClient client;
  private final String taskQueue;
  private final ExecutorService waits = new ThreadPoolExecutor(0, MAX_CONCURRENT_CREATES,
      60, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, "create-subscription");
        thread.setDaemon(true);
        return thread;
      });

  public SubscriptionWorkflows(WorkflowClient client, String taskQueue) {
    this.client = client;
    this.taskQueue = taskQueue;
  }

  /**
   * Starts the subscription's workflow and waits for its {@code created} update, which completes once
   * the subscription is in the store (so a GET right after sees it). USE_EXISTING makes a concurrent
   * retry attach to the running workflow instead of starting another; REJECT_DUPLICATE keeps a closed
   * one (e.g. cancelled) from being restarted under the same id.
   *
   * @throws io.temporal.client.WorkflowExecutionAlreadyStarted when a closed workflow has this id
   */
  public SubscriptionState create(Subscription subscription) {
    WorkflowOptions options = WorkflowOptions.newBuilder()
        .setWorkflowId(BillingIds.workflowId(subscription.subscriptionId()))
        .setTaskQueue(taskQueue)
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
        .setTypedSearchAttributes(SearchAttributes.newBuilder()
            .set(BillingSearchAttributes.BILLING_STATUS, subscription.status().name())
            .set(BillingSearchAttributes.ACCOUNT_ID, subscription.accountId())
            .set(BillingSearchAttributes.SKU, subscription.sku())
            .build())
        .build();
    SubscriptionWorkflow workflow = client.newWorkflowStub(SubscriptionWorkflow.class, options);
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(workflow::run, new SubscriptionInput(subscription, false));
    UpdateOptions<SubscriptionState> update = UpdateOptions.newBuilder(SubscriptionState.class)
        .setWaitForStage(WorkflowUpdateStage.COMPLETED)
        .build();
    Future<SubscriptionState> created;
    try {
      created = waits.submit(() -> WorkflowClient.executeUpdateWithStart(workflow::created, update, start));
    } catch (RejectedExecutionException e) {
      throw ApiProblem.unavailable("Too many subscriptions are being created at once; retry shortly.");
    }
    try {
      return created.get(CREATE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // The workflow exists and will record the subscription once a worker picks it up.
      throw ApiProblem.unavailable("The subscription " + subscription.subscriptionId()
          + " was accepted but is not recorded yet; retry with the same Idempotency-Key to get it.");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ApiProblem.unavailable("The request was interrupted; retry it.");
    }
  }

  /**
   * Sends the {@code cancel} update to the subscription's running workflow; completes once the
   * cancellation is recorded.
   *
   * @throws WorkflowUpdateException when the workflow refused it, see {@link #transitionNotAllowed}
   */
  public SubscriptionState cancel(String subscriptionId, CancelRequest request) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId(subscriptionId));
    return workflow.cancel(request);
  }

  /**
   * The message of the validator's refusal when the change is not allowed in the subscription's
   * current state (e.g. cancelling twice), or null when the update failed for another reason.
   */
  public static String transitionNotAllowed(WorkflowUpdateException e) {
    return e.getCause() instanceof ApplicationFailure failure
        && UpdateRejections.TRANSITION_NOT_ALLOWED.equals(failure.getType())
        ? failure.getOriginalMessage() : null;
  }
}
