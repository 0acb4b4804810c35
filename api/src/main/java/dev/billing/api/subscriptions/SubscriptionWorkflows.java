package dev.billing.api.subscriptions;

import dev.billing.api.errors.ApiProblem;
import dev.billing.workflows.UpdateRejections;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionVisibility;
import dev.billing.workflows.SubscriptionWorkflow;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;

/** The API's side of the subscription workflow: start it, cancel it. */
public final class SubscriptionWorkflows {

  /**
   * How long a create (then 202) or a change (then 503) waits for the workflow to record it.
   */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);
  private static final int MAX_CONCURRENT_CREATES = 64;

  private final WorkflowClient client;
  private final String taskQueue;
  private final ExecutorService waits = new ThreadPoolExecutor(0, MAX_CONCURRENT_CREATES,
      60, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, "create-subscription");
        thread.setDaemon(true);
        return thread;
      });

  private final Duration wait;

  public SubscriptionWorkflows(WorkflowClient client, String taskQueue) {
    this(client, taskQueue, DEFAULT_WAIT);
  }

  /** @param wait how long a create or a change waits for its workflow to record it */
  public SubscriptionWorkflows(WorkflowClient client, String taskQueue, Duration wait) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.wait = wait;
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
        // Operators' view in the Temporal UI, set in the start request so it costs no workflow action.
        .setTypedSearchAttributes(SubscriptionVisibility.startAttributes(subscription, null))
        .setMemo(SubscriptionVisibility.memo(subscription))
        .build();
    SubscriptionWorkflow workflow = client.newWorkflowStub(SubscriptionWorkflow.class, options);
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(workflow::run, new SubscriptionInput(subscription, false));
    UpdateOptions<SubscriptionState> update = UpdateOptions.newBuilder(SubscriptionState.class)
        .setWaitForStage(WorkflowUpdateStage.COMPLETED)
        .build();
    return within(wait,
        () -> WorkflowClient.executeUpdateWithStart(workflow::created, update, start),
        () -> new NotRecordedYet(subscription.subscriptionId()));
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
    return within(wait, () -> workflow.cancel(request), SubscriptionWorkflows::notAnswered);
  }

  /** Sends the {@code changePaymentMethod} update; completes once the change is recorded. */
  public SubscriptionState changePaymentMethod(String subscriptionId, PaymentMethodChange change) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId(subscriptionId));
    return within(wait, () -> workflow.changePaymentMethod(change), SubscriptionWorkflows::notAnswered);
  }

  private static ApiProblem notAnswered() {
    return ApiProblem.unavailable(
        "The subscription's workflow did not answer in time; the change may still be applied. "
            + "GET the subscription to see its state before retrying.");
  }

  /**
   * Runs a Temporal call that blocks until a worker answers, for at most {@code wait}. The SDK's
   * calls have no overall deadline, so they run on a small bounded pool; a call that times out is
   * interrupted and its thread freed.
   */
  private <T> T within(Duration wait, Callable<T> call, Supplier<RuntimeException> onTimeout) {
    Future<T> result;
    try {
      result = waits.submit(call);
    } catch (RejectedExecutionException e) {
      throw ApiProblem.unavailable("Too many changes are waiting for workers; retry shortly.");
    }
    try {
      return result.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      result.cancel(true);
      throw onTimeout.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      result.cancel(true);
      Thread.currentThread().interrupt();
      throw ApiProblem.unavailable("The request was interrupted; retry it.");
    }
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
