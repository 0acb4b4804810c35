package dev.billing.workflows;

import dev.billing.domain.Process;
import dev.billing.workflows.AppliedRequest.Status;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.UpdateInfo;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Lifecycle changes accepted by their validators. An update handler only queues its change and
 * waits; the main workflow thread applies the queue in order at a safe point, never between a
 * charge and its record, and completes (or fails, with a typed ApplicationFailure) each handler's
 * promise. Each change is remembered by its request id ({@link RequestLog}): a repeat gets the first
 * answer without being applied again. The timers that resolve an unknown charge or refund queue
 * their work here too, so it also runs on the main thread.
 */
final class ChangeQueue {
  private static final Logger log = Workflow.getLogger(ChangeQueue.class);

  private record Change(UpdateRequest<?> request, CompletablePromise<SubscriptionState> done) {}

  private final List<Change> pending = new ArrayList<>();
  private final LifecycleOperations lifecycle;
  private final RequestLog requests;
  private final Supplier<SubscriptionState> snapshot;

  ChangeQueue(LifecycleOperations lifecycle, RequestLog requests, Supplier<SubscriptionState> snapshot) {
    this.lifecycle = lifecycle;
    this.requests = requests;
    this.snapshot = snapshot;
  }

  /**
   * The request with its id: the one the API gave it, else its update's id (an update sent without
   * one, e.g. from the Temporal CLI, is still remembered under the id Temporal deduplicates by).
   */
  static <T extends UpdateRequest<T>> T identified(T request) {
    if (request == null || request.requestId() != null) {
      return request;
    }
    String updateId = Workflow.getCurrentUpdateInfo().map(UpdateInfo::getUpdateId).orElse(null);
    return updateId == null ? request : request.withRequestId(updateId);
  }

  /** From a validator: see {@link RequestLog#isRepeat}. */
  boolean isRepeat(UpdateRequest<?> request) {
    return request != null && requests.isRepeat(request);
  }

  /** From an update handler: the first answer of a repeat, else queues the change and waits. */
  SubscriptionState submit(UpdateRequest<?> request) {
    AppliedRequest known = requests.find(request.requestId());
    if (known != null) {
      return answer(known);
    }
    CompletablePromise<SubscriptionState> done = Workflow.newPromise();
    pending.add(new Change(request, done));
    return done.get();
  }

  boolean isEmpty() {
    return pending.isEmpty() && !requests.hasDue();
  }

  /** From the main thread: resolves what timers made due, then applies every queued change in order. */
  void applyAll() {
    while (requests.hasDue()) {
      lifecycle.resolvePending(requests.nextDue());
    }
    while (!pending.isEmpty()) {
      Change change = pending.remove(0);
      UpdateRequest<?> request = change.request();
      AppliedRequest known = requests.find(request.requestId());
      if (known != null) {
        // The same id queued twice within a run (sent under two update ids): applied once.
        completeWith(change, known);
        continue;
      }
      try {
        apply(request);
        AppliedRequest taken = requests.find(request.requestId());
        if (taken == null || taken.status() != Status.PENDING) {
          taken = requests.remember(request, Status.APPLIED, snapshot.get().lastOutcome(), null);
        }
        change.done().complete(answer(taken));
      } catch (ApplicationFailure refused) {
        AppliedRequest failed =
            requests.remember(request, Status.FAILED, refused.getOriginalMessage(), refused.getType());
        change.done().completeExceptionally(failure(failed));
      } catch (TemporalFailure failed) {
        // Not remembered: nothing was decided, a retry of the request may go through.
        log.warn("lifecycle change {} failed", request, failed);
        change.done().completeExceptionally(ApplicationFailure.newNonRetryableFailure(
            "the change could not be completed: " + failed.getOriginalMessage(), "DependencyUnavailable"));
      }
    }
  }

  private void completeWith(Change change, AppliedRequest known) {
    try {
      change.done().complete(answer(known));
    } catch (ApplicationFailure failure) {
      change.done().completeExceptionally(failure);
    }
  }

  /**
   * The answer to a request already taken on: the subscription as it is now, with the first
   * answer's sentence and status; a refusal or decline fails again with its first type and message.
   */
  SubscriptionState answer(AppliedRequest known) {
    if (known.status() == Status.FAILED) {
      throw failure(known);
    }
    SubscriptionState now = snapshot.get();
    return new SubscriptionState(now.subscription(), now.phase(), now.waitingUntil(), known.outcome(), known);
  }

  /**
   * A refusal or decline as the update's failure, with the request's fingerprint as its details:
   * Temporal answers a repeat of the update id with this failure whatever the repeat carried, so
   * the API tells a reused id from a repeat by it.
   */
  private static ApplicationFailure failure(AppliedRequest failed) {
    return ApplicationFailure.newNonRetryableFailure(failed.outcome(), failed.failureType(),
        failed.fingerprint());
  }

  private void apply(UpdateRequest<?> request) {
    if (request instanceof PauseRequest pause) {
      lifecycle.pause(pause, actor(pause.requestedBy()));
    } else if (request instanceof ResumeRequest resume) {
      lifecycle.resume(actor(resume.requestedBy()), Process.API);
    } else if (request instanceof PlanChangeRequest plan) {
      lifecycle.changePlan(plan, actor(plan.requestedBy()));
    } else if (request instanceof PayNowRequest pay) {
      lifecycle.payNow(pay);
    } else if (request instanceof WaiveRequest waive) {
      lifecycle.waive(waive, actor(waive.requestedBy()));
    } else if (request instanceof RefundRequest refund) {
      lifecycle.refund(refund, actor(refund.requestedBy()));
    } else if (request instanceof BillingDayChange day) {
      lifecycle.changeBillingDay(day, actor(day.requestedBy()));
    } else if (request instanceof CancelRequest cancel) {
      lifecycle.cancelAtPeriodEnd(cancel, actor(cancel.requestedBy()));
    } else {
      throw LifecycleOperations.refusal("unknown change " + request);
    }
  }

  private static String actor(String requestedBy) {
    return requestedBy == null || requestedBy.isBlank() ? SubscriptionChanges.API_ACTOR : requestedBy;
  }
}
