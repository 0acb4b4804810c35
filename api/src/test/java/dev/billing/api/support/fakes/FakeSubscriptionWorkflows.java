package dev.billing.api.support.fakes;

import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.AppliedRequest;
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
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.UpdateRequests;
import dev.billing.workflows.WaiveRequest;
import dev.billing.workflows.subscription.SubscriptionChanges;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The subscriptions' workflows as the resources see them through {@link SubscriptionCommands}, for
 * resource tests. It keeps Temporal's rules that the API relies on, and no kinder ones:
 *
 * <ul>
 *   <li>create writes the creation record the workflow writes, through the real store, before it
 *       answers; a second create of a running id attaches to it and answers with what the first
 *       recorded (USE_EXISTING); a create of an ended id fails (REJECT_DUPLICATE);
 *   <li>a change to a subscription without a running workflow fails with WorkflowNotFoundException;
 *   <li>a change whose request id this run already answered gets the first answer again, whatever
 *       it asks now (Temporal's update id within a run);
 *   <li>it decides nothing about a change: a test says what the workflow answers ({@link
 *       #answerNext}, {@link #refuseNext}); unscripted, the change is applied with no effect on the
 *       subscription, and a test must not read more into that answer.
 * </ul>
 */
public final class FakeSubscriptionWorkflows implements SubscriptionCommands {

  /** One update the API sent. */
  public record Sent(String subscriptionId, String update, UpdateRequest<?> request) {}

  private final BillingStore store;
  private final InstantSource clock;
  private final Map<String, Run> runs = new HashMap<>();
  private final Deque<Function<Subscription, SubscriptionState>> scripted = new ArrayDeque<>();

  /** Every update sent, in order; creates are not updates. */
  public final List<Sent> sent = new CopyOnWriteArrayList<>();

  private static final class Run {
    final String accountId;
    boolean open = true;

    Run(String accountId) {
      this.accountId = accountId;
    }

    final Map<String, Object> answers = new HashMap<>();
  }

  public FakeSubscriptionWorkflows(BillingStore store, InstantSource clock) {
    this.store = store;
    this.clock = clock;
  }

  /** The next change is answered with what {@code answer} makes of the stored subscription. */
  public synchronized void answerNext(Function<Subscription, SubscriptionState> answer) {
    scripted.add(answer);
  }

  /**
   * The next change is refused as the workflow refuses it: an update failure of this type (one of
   * {@link dev.billing.workflows.UpdateRejections}) carrying the request's fingerprint.
   */
  public synchronized void refuseNext(String type, String message) {
    scripted.add(
        subscription -> {
          throw new Refusal(type, message);
        });
  }

  /** The subscription's workflow ends (its record stays as the store has it). */
  public synchronized void end(String subscriptionId) {
    Run run = runs.get(subscriptionId);
    if (run != null) {
      run.open = false;
    }
  }

  /** Whether a workflow ever ran under this subscription's id. */
  public synchronized boolean exists(String subscriptionId) {
    return runs.containsKey(subscriptionId);
  }

  /** Whether this subscription's workflow is running. */
  public synchronized boolean running(String subscriptionId) {
    Run run = runs.get(subscriptionId);
    return run != null && run.open;
  }

  /** The updates sent to this subscription, in order. */
  public List<Sent> sentTo(String subscriptionId) {
    return sent.stream().filter(s -> s.subscriptionId().equals(subscriptionId)).toList();
  }

  @Override
  public synchronized SubscriptionState create(Subscription subscription, String requestedBy) {
    String id = subscription.subscriptionId();
    Run run = runs.get(id);
    if (run != null && !run.open) {
      throw new WorkflowExecutionAlreadyStarted(execution(id), "SubscriptionWorkflow", null);
    }
    if (run == null) {
      store.createSubscription(
          SubscriptionChanges.creation(subscription, requestedBy, clock.instant()));
      runs.put(id, new Run(subscription.accountId()));
    }
    return state(store.getSubscription(subscription.accountId(), id).orElseThrow(), null);
  }

  @Override
  public SubscriptionState cancel(String subscriptionId, CancelRequest request) {
    return update(subscriptionId, "cancel", request);
  }

  @Override
  public SubscriptionState changePaymentMethod(String subscriptionId, PaymentMethodChange change) {
    return update(subscriptionId, "changePaymentMethod", change);
  }

  @Override
  public SubscriptionState pause(String subscriptionId, PauseRequest request) {
    return update(subscriptionId, "pause", request);
  }

  @Override
  public SubscriptionState resume(String subscriptionId, ResumeRequest request) {
    return update(subscriptionId, "resume", request);
  }

  @Override
  public SubscriptionState changePlan(String subscriptionId, PlanChangeRequest request) {
    return update(subscriptionId, "changePlan", request);
  }

  @Override
  public SubscriptionState payNow(String subscriptionId, PayNowRequest request) {
    return update(subscriptionId, "payNow", request);
  }

  @Override
  public SubscriptionState waivePeriod(String subscriptionId, WaiveRequest request) {
    return update(subscriptionId, "waivePeriod", request);
  }

  @Override
  public SubscriptionState refundPeriod(String subscriptionId, RefundRequest request) {
    return update(subscriptionId, "refundPeriod", request);
  }

  @Override
  public synchronized SubscriptionState refundAfterEnd(
      SubscriptionInput restart, RefundRequest request) {
    Subscription ended = restart.subscription();
    // The workflow starts again under its id (ALLOW_DUPLICATE), applies the refund and ends.
    runs.computeIfAbsent(ended.subscriptionId(), id -> new Run(ended.accountId())).open = true;
    try {
      return update(ended.subscriptionId(), "refundPeriod", request);
    } finally {
      runs.get(ended.subscriptionId()).open = false;
    }
  }

  @Override
  public SubscriptionState changeBillingDay(String subscriptionId, BillingDayChange request) {
    return update(subscriptionId, "changeBillingDay", request);
  }

  @Override
  public SubscriptionState changeCustomer(String subscriptionId, CustomerChange change) {
    return update(subscriptionId, "changeCustomer", change);
  }

  @Override
  public SubscriptionState reactivate(String subscriptionId, ReactivateRequest request) {
    return update(subscriptionId, "reactivate", request);
  }

  @Override
  public synchronized SubscriptionState reactivateAfterEnd(
      SubscriptionInput restart, ReactivateRequest request) {
    Subscription ended = restart.subscription();
    // The workflow starts again under its id (ALLOW_DUPLICATE) and, reactivated, keeps running;
    // refused, the run ends at once.
    Run run = runs.computeIfAbsent(ended.subscriptionId(), id -> new Run(ended.accountId()));
    run.open = true;
    try {
      return update(ended.subscriptionId(), "reactivate", request);
    } catch (RuntimeException refused) {
      run.open = false;
      throw refused;
    }
  }

  private synchronized SubscriptionState update(
      String subscriptionId, String name, UpdateRequest<?> request) {
    // The Temporal implementation gives every request an id before sending it; so must the
    // resources.
    if (request.requestId() == null) {
      throw new IllegalArgumentException("an update without a request id: " + request);
    }
    sent.add(new Sent(subscriptionId, name, request));
    Run run = runs.get(subscriptionId);
    if (run == null || !run.open) {
      throw new WorkflowNotFoundException(execution(subscriptionId), "SubscriptionWorkflow", null);
    }
    Object answer = run.answers.get(request.requestId());
    if (answer == null) {
      answer = answer(run, subscriptionId, name, request);
      if (answer instanceof SubscriptionState) {
        // A refused update is not in the history: its id may be sent again and is validated again.
        run.answers.put(request.requestId(), answer);
      }
    }
    if (answer instanceof RuntimeException failure) {
      throw failure;
    }
    return (SubscriptionState) answer;
  }

  private Object answer(Run run, String subscriptionId, String name, UpdateRequest<?> request) {
    Subscription current = store.getSubscription(run.accountId, subscriptionId).orElseThrow();
    Function<Subscription, SubscriptionState> script = scripted.poll();
    String fingerprint = UpdateRequests.fingerprint(request);
    if (script == null) {
      return state(
          current,
          new AppliedRequest(
              request.requestId(),
              fingerprint,
              AppliedRequest.Status.APPLIED,
              null,
              null,
              clock.instant()));
    }
    try {
      SubscriptionState state = script.apply(current);
      return state.request() != null
          ? state
          : state(
              state.subscription(),
              new AppliedRequest(
                  request.requestId(),
                  fingerprint,
                  AppliedRequest.Status.APPLIED,
                  null,
                  null,
                  clock.instant()));
    } catch (Refusal refusal) {
      return new WorkflowUpdateException(
          execution(subscriptionId),
          request.requestId(),
          name,
          ApplicationFailure.newNonRetryableFailure(
              refusal.getMessage(), refusal.type, fingerprint));
    }
  }

  private static SubscriptionState state(Subscription subscription, AppliedRequest request) {
    return new SubscriptionState(
        subscription, SubscriptionState.Phase.WAITING_FOR_REMINDER, null, null, request);
  }

  private static WorkflowExecution execution(String subscriptionId) {
    return WorkflowExecution.newBuilder()
        .setWorkflowId(BillingIds.workflowId(subscriptionId))
        .build();
  }

  private static final class Refusal extends RuntimeException {
    final String type;

    Refusal(String type, String message) {
      super(message);
      this.type = type;
    }
  }
}
