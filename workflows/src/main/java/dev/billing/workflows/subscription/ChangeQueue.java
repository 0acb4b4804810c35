package dev.billing.workflows.subscription;

import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.AppliedRequest.Status;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.Promise;
import io.temporal.workflow.UpdateInfo;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * The one queue of changes accepted by their validators ({@link QueuedChange}). An update handler
 * only queues its change and waits; the main workflow thread applies the queue at a safe point,
 * never between a charge and its record, and completes (or fails, with a typed ApplicationFailure)
 * each handler's promise. Each change is remembered by its request id ({@link RequestLog}): a
 * repeat gets the first answer without being applied again. The timers that resolve an unknown
 * charge or refund queue their work in the request log, and it is applied here too, on the main
 * thread.
 */
final class ChangeQueue {
  private static final Logger log = Workflow.getLogger(ChangeQueue.class);

  private record Entry(QueuedChange change, CompletablePromise<SubscriptionState> done) {}

  private final List<Entry> pending = new ArrayList<>();
  private final RunState run;

  ChangeQueue(RunState run) {
    this.run = run;
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
    return request != null && run.requests.isRepeat(request);
  }

  /**
   * From a validator: a repeat of a request taken on is let through (its handler answers it as the
   * first time); otherwise the rule refuses before the update enters history.
   */
  void validate(UpdateRequest<?> request, Supplier<String> rule) {
    if (!isRepeat(request)) {
      String refusal = rule.get();
      if (refusal != null) {
        throw UpdateRejections.transitionNotAllowed(refusal);
      }
    }
  }

  /**
   * From an update handler: the first answer of a repeat, else queues the change and waits for the
   * answer {@link #applyAll} gives it.
   */
  SubscriptionState submit(QueuedChange change) {
    AppliedRequest known = run.requests.find(change.request().requestId());
    if (known != null) {
      return answer(known);
    }
    return enqueue(change).get();
  }

  private Promise<SubscriptionState> enqueue(QueuedChange change) {
    CompletablePromise<SubscriptionState> done = Workflow.newPromise();
    pending.add(new Entry(change, done));
    return done;
  }

  /**
   * From an update handler, for a change the main loop takes itself: the first answer of a repeat,
   * else queues the change, waits until it is recorded and answers with {@code outcome} as it is
   * then. A change the run ended before recording is refused with {@code notRecorded}: end() awaits
   * every handler, so it can never wait for a change that will not be recorded any more, and the
   * change is rejected, not lost silently.
   */
  SubscriptionState awaitRecorded(
      QueuedChange change, Supplier<String> outcome, String notRecorded) {
    AppliedRequest known = run.requests.find(change.request().requestId());
    if (known != null) {
      return answer(known);
    }
    if (enqueue(change).get() == null) {
      throw UpdateRejections.transitionNotAllowed(notRecorded);
    }
    return answer(run.requests.remember(change.request(), Status.APPLIED, outcome.get(), null));
  }

  boolean isEmpty() {
    return pending.isEmpty() && !run.requests.hasDue();
  }

  /** The client's immediate cancellation waiting in the queue; null when none. */
  QueuedChange.CancelNow cancelAsked() {
    for (Entry entry : pending) {
      if (entry.change() instanceof QueuedChange.CancelNow cancel) {
        return cancel;
      }
    }
    return null;
  }

  /** The oldest payment method change waiting; null when none. */
  QueuedChange.NewPaymentMethod paymentMethodChange() {
    for (Entry entry : pending) {
      if (entry.change() instanceof QueuedChange.NewPaymentMethod change) {
        return change;
      }
    }
    return null;
  }

  /** The main loop recorded a change it takes itself: its handler is answered. */
  void recorded(QueuedChange change) {
    Entry entry = remove(change);
    if (entry != null) {
      entry.done().complete(run.snapshot());
    }
  }

  /** The run is ending: a change the main loop would have taken is never recorded now. */
  void dropUnrecorded() {
    for (Entry entry : List.copyOf(pending)) {
      if (entry.change().takenBySafePoint()) {
        pending.remove(entry);
        entry.done().complete(null);
      }
    }
  }

  private Entry remove(QueuedChange change) {
    for (Entry entry : pending) {
      if (entry.change() == change) {
        pending.remove(entry);
        return entry;
      }
    }
    return null;
  }

  /**
   * From the main thread: resolves what timers made due, then applies every queued change in order
   * (those the main loop takes itself stay for it).
   */
  void applyAll(LifecycleOperations lifecycle) {
    while (run.requests.hasDue()) {
      lifecycle.resolvePending(run.requests.nextDue());
    }
    Entry change;
    while ((change = nextApplicable()) != null) {
      UpdateRequest<?> request = change.change().request();
      AppliedRequest known = run.requests.find(request.requestId());
      if (known != null) {
        // The same id queued twice within a run (sent under two update ids): applied once.
        completeWith(change, known);
        continue;
      }
      try {
        change.change().applyTo(lifecycle);
        AppliedRequest taken = run.requests.find(request.requestId());
        if (taken == null || taken.status() != Status.PENDING) {
          taken = run.requests.remember(request, Status.APPLIED, run.lastOutcome(), null);
        }
        change.done().complete(answer(taken));
      } catch (ApplicationFailure refused) {
        AppliedRequest failed =
            run.requests.remember(
                request, Status.FAILED, refused.getOriginalMessage(), refused.getType());
        change.done().completeExceptionally(failure(failed));
      } catch (TemporalFailure failed) {
        // Not remembered: nothing was decided, a retry of the request may go through.
        log.warn("lifecycle change {} failed", request, failed);
        change
            .done()
            .completeExceptionally(
                ApplicationFailure.newNonRetryableFailure(
                    "the change could not be completed: " + failed.getOriginalMessage(),
                    "DependencyUnavailable"));
      }
    }
  }

  private Entry nextApplicable() {
    for (Entry entry : pending) {
      if (!entry.change().takenBySafePoint()) {
        pending.remove(entry);
        return entry;
      }
    }
    return null;
  }

  private void completeWith(Entry change, AppliedRequest known) {
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
    SubscriptionState now = run.snapshot();
    return new SubscriptionState(
        now.subscription(), now.phase(), now.waitingUntil(), known.outcome(), known);
  }

  /**
   * A refusal or decline as the update's failure, with the request's fingerprint as its details:
   * Temporal answers a repeat of the update id with this failure whatever the repeat carried, so
   * the API tells a reused id from a repeat by it.
   */
  private static ApplicationFailure failure(AppliedRequest failed) {
    return ApplicationFailure.newNonRetryableFailure(
        failed.outcome(), failed.failureType(), failed.fingerprint());
  }
}
