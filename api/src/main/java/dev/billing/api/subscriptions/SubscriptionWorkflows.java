package dev.billing.api.subscriptions;

import dev.billing.api.errors.ApiProblem;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionStartOptions;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.WaiveRequest;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Functions;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/** The API's side of the subscription workflow: start it, and send it every change as an update. */
public final class SubscriptionWorkflows implements SubscriptionCommands {

  /** How long a create (then 202) or a change (then 503) waits for the workflow to record it. */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

  private static final int MAX_CONCURRENT_CREATES = 64;

  private final WorkflowClient client;
  private final String taskQueue;
  private final ExecutorService waits =
      new ThreadPoolExecutor(
          0,
          MAX_CONCURRENT_CREATES,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          runnable -> {
            Thread thread = new Thread(runnable, "create-subscription");
            thread.setDaemon(true);
            return thread;
          });

  private final Duration wait;

  public SubscriptionWorkflows(WorkflowClient client, String taskQueue) {
    this(client, taskQueue, DEFAULT_WAIT);
  }

  /**
   * @param wait how long a create or a change waits for its workflow to record it
   */
  public SubscriptionWorkflows(WorkflowClient client, String taskQueue, Duration wait) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.wait = wait;
  }

  /**
   * Starts the subscription's workflow and waits for its {@code created} update, which completes
   * once the subscription is in the store (so a GET right after sees it). USE_EXISTING makes a
   * concurrent retry attach to the running workflow instead of starting another; REJECT_DUPLICATE
   * keeps a closed one (e.g. cancelled) from being restarted under the same id.
   *
   * @throws io.temporal.client.WorkflowExecutionAlreadyStarted when a closed workflow has this id
   */
  public SubscriptionState create(Subscription subscription) {
    return create(subscription, null);
  }

  /**
   * @param requestedBy the principal asking, kept in the creation's history entry
   */
  @Override
  public SubscriptionState create(Subscription subscription, String requestedBy) {
    WorkflowOptions options =
        SubscriptionStartOptions.of(
            subscription,
            taskQueue,
            null,
            WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
            WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING);
    SubscriptionWorkflow workflow = client.newWorkflowStub(SubscriptionWorkflow.class, options);
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(
            workflow::run, SubscriptionInput.requested(subscription, requestedBy));
    UpdateOptions<SubscriptionState> update =
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setWaitForStage(WorkflowUpdateStage.COMPLETED)
            .build();
    return within(
        wait,
        () -> WorkflowClient.executeUpdateWithStart(workflow::created, update, start),
        () -> new NotRecordedYet(subscription.subscriptionId()));
  }

  /**
   * Sends the {@code cancel} update to the subscription's running workflow; completes once the
   * cancellation is recorded.
   *
   * @throws WorkflowUpdateException when the workflow refused it, see {@link #transitionNotAllowed}
   */
  @Override
  public SubscriptionState cancel(String subscriptionId, CancelRequest request) {
    return send(subscriptionId, request, workflow -> workflow::cancel);
  }

  /** Sends the {@code changePaymentMethod} update; completes once the change is recorded. */
  @Override
  public SubscriptionState changePaymentMethod(String subscriptionId, PaymentMethodChange change) {
    return send(subscriptionId, change, workflow -> workflow::changePaymentMethod);
  }

  @Override
  public SubscriptionState pause(String subscriptionId, PauseRequest request) {
    return send(subscriptionId, request, workflow -> workflow::pause);
  }

  @Override
  public SubscriptionState resume(String subscriptionId, ResumeRequest request) {
    return send(subscriptionId, request, workflow -> workflow::resume);
  }

  @Override
  public SubscriptionState changePlan(String subscriptionId, PlanChangeRequest request) {
    return send(subscriptionId, request, workflow -> workflow::changePlan);
  }

  /**
   * Manual repayment; a decline fails the update with {@link UpdateRejections#PAYMENT_DECLINED}.
   */
  @Override
  public SubscriptionState payNow(String subscriptionId, PayNowRequest request) {
    return send(subscriptionId, request, workflow -> workflow::payNow);
  }

  @Override
  public SubscriptionState waivePeriod(String subscriptionId, WaiveRequest request) {
    return send(subscriptionId, request, workflow -> workflow::waivePeriod);
  }

  @Override
  public SubscriptionState refundPeriod(String subscriptionId, RefundRequest request) {
    return send(subscriptionId, request, workflow -> workflow::refundPeriod);
  }

  /**
   * Refunds a period of a subscription whose workflow has ended (cancelled): starts the workflow
   * again under its id from the record (ALLOW_DUPLICATE: it is closed), with the refund as its
   * update; that run applies it and ends. USE_EXISTING attaches to such a run if one is still open.
   * The new run does not have the ended run's memory of requests: a retry of a refund the ended run
   * took on is answered from the period's record, which keeps every refund key before it is sent.
   * It knows every charge the record shows collected, so a bank's return that reaches it while it
   * is open is recorded.
   */
  @Override
  public SubscriptionState refundAfterEnd(SubscriptionInput restart, RefundRequest request) {
    return afterEnd(restart, identified(request), workflow -> workflow::refundPeriod);
  }

  @Override
  public SubscriptionState reactivate(String subscriptionId, ReactivateRequest request) {
    return send(subscriptionId, request, workflow -> workflow::reactivate);
  }

  /**
   * Reactivates a subscription whose workflow has ended, the same way as {@link #refundAfterEnd}:
   * the run started from the record applies it, and bills on instead of ending. A run of the ended
   * workflow still open takes it instead (USE_EXISTING).
   */
  @Override
  public SubscriptionState reactivateAfterEnd(
      SubscriptionInput restart, ReactivateRequest request) {
    return afterEnd(restart, identified(request), workflow -> workflow::reactivate);
  }

  /**
   * Starts the ended workflow again under its id from the record (ALLOW_DUPLICATE: it is closed)
   * with {@code sent} as its update, and waits for the answer; USE_EXISTING attaches to a run of it
   * still open. Not finished in time: {@link ChangeStillRunning} (202).
   */
  private <T extends UpdateRequest<T>> SubscriptionState afterEnd(
      SubscriptionInput restart,
      T sent,
      Function<SubscriptionWorkflow, Functions.Func1<T, SubscriptionState>> method) {
    Subscription ended = restart.subscription();
    // The new run shows what the ended one showed (BillingStatus CANCELLED...), not nothing.
    WorkflowOptions options =
        SubscriptionStartOptions.of(
            ended,
            taskQueue,
            null,
            WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
            WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING);
    SubscriptionWorkflow workflow = client.newWorkflowStub(SubscriptionWorkflow.class, options);
    WithStartWorkflowOperation<SubscriptionState> start =
        new WithStartWorkflowOperation<>(workflow::run, restart);
    UpdateOptions<SubscriptionState> update =
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setUpdateId(sent.requestId())
            .setWaitForStage(WorkflowUpdateStage.COMPLETED)
            .build();
    return within(
        wait,
        () -> WorkflowClient.executeUpdateWithStart(method.apply(workflow), sent, update, start),
        () -> new ChangeStillRunning(ended.subscriptionId(), sent.requestId(), null));
  }

  @Override
  public SubscriptionState changeBillingDay(String subscriptionId, BillingDayChange request) {
    return send(subscriptionId, request, workflow -> workflow::changeBillingDay);
  }

  @Override
  public SubscriptionState changeCustomer(String subscriptionId, CustomerChange change) {
    return send(subscriptionId, change, workflow -> workflow::changeCustomer);
  }

  /**
   * Sends one update, the request with its id (see {@link #identified}), through {@link #update}.
   */
  private <T extends UpdateRequest<T>> SubscriptionState send(
      String subscriptionId,
      T request,
      Function<SubscriptionWorkflow, Functions.Func1<T, SubscriptionState>> method) {
    T sent = identified(request);
    return update(
        subscriptionId,
        sent,
        workflow -> WorkflowClient.startUpdate(method.apply(workflow), sent, accepted(sent)));
  }

  /**
   * The request with its id: the caller's (the Idempotency-Key), else a new one. The id is the
   * update's id too, so a retry within the workflow's run finds the update Temporal already has.
   */
  static <T extends UpdateRequest<T>> T identified(T request) {
    return request.requestId() != null ? request : request.withRequestId(newRequestId());
  }

  /** An id for a change request that came without an Idempotency-Key. */
  public static String newRequestId() {
    return "req_" + UUID.randomUUID();
  }

  /**
   * Sends one update and waits, within one overall bound, first for the workflow to accept it (its
   * validator ran: a refusal comes back here as a {@link WorkflowUpdateException}), then for its
   * result. Not accepted in time: 503, nothing may have happened. Accepted but not finished in time
   * (a charge or refund still talking to the gateway): {@link ChangeStillRunning}, the API's 202,
   * because the workflow will finish it and a blind retry could ask for it twice.
   */
  private SubscriptionState update(
      String subscriptionId,
      UpdateRequest<?> request,
      Function<SubscriptionWorkflow, WorkflowUpdateHandle<SubscriptionState>> start) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId(subscriptionId));
    long deadline = System.nanoTime() + wait.toNanos();
    WorkflowUpdateHandle<SubscriptionState> handle =
        within(wait, () -> start.apply(workflow), SubscriptionWorkflows::notAnswered);
    Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    return within(
        left,
        handle::getResult,
        () -> new ChangeStillRunning(subscriptionId, request.requestId(), null));
  }

  private static UpdateOptions<SubscriptionState> accepted(UpdateRequest<?> request) {
    return UpdateOptions.newBuilder(SubscriptionState.class)
        .setUpdateId(request.requestId())
        .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
        .build();
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
      throw e.getCause() instanceof RuntimeException cause
          ? cause
          : new IllegalStateException(e.getCause());
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
    return failureOfType(e, UpdateRejections.TRANSITION_NOT_ALLOWED);
  }

  /**
   * The message of the update's failure when its type is {@code type} (one of {@link
   * UpdateRejections}' types), or null when the update failed otherwise.
   */
  /**
   * The fingerprint of the request a failed update answered (the workflow puts it in the failure's
   * details); null when the failure carries none (a validator's refusal).
   */
  public static String failureFingerprint(WorkflowUpdateException e) {
    if (!(e.getCause() instanceof ApplicationFailure failure)
        || failure.getDetails() == null
        || failure.getDetails().getSize() == 0) {
      return null;
    }
    try {
      return failure.getDetails().get(String.class);
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  public static String failureOfType(WorkflowUpdateException e, String type) {
    return e.getCause() instanceof ApplicationFailure failure && type.equals(failure.getType())
        ? failure.getOriginalMessage()
        : null;
  }
}
