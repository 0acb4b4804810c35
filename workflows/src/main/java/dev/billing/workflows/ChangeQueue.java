package dev.billing.workflows;

import dev.billing.domain.Process;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Lifecycle changes accepted by their validators. An update handler only queues its change and
 * waits; the main workflow thread applies the queue in order at a safe point, never between a
 * charge and its record, and completes (or fails, with a typed ApplicationFailure) each handler's
 * promise.
 */
final class ChangeQueue {
  private static final Logger log = Workflow.getLogger(ChangeQueue.class);

  private record Change(Object request, CompletablePromise<SubscriptionState> done) {}

  private final List<Change> pending = new ArrayList<>();
  private final LifecycleOperations lifecycle;
  private final Supplier<SubscriptionState> snapshot;

  ChangeQueue(LifecycleOperations lifecycle, Supplier<SubscriptionState> snapshot) {
    this.lifecycle = lifecycle;
    this.snapshot = snapshot;
  }

  /** From an update handler: queues the change and waits for its outcome. */
  SubscriptionState submit(Object request) {
    CompletablePromise<SubscriptionState> done = Workflow.newPromise();
    pending.add(new Change(request, done));
    return done.get();
  }

  boolean isEmpty() {
    return pending.isEmpty();
  }

  /** From the main thread: applies every queued change in order. */
  void applyAll() {
    while (!pending.isEmpty()) {
      Change change = pending.remove(0);
      try {
        apply(change.request());
        change.done().complete(snapshot.get());
      } catch (ApplicationFailure refused) {
        change.done().completeExceptionally(refused);
      } catch (TemporalFailure failed) {
        log.warn("lifecycle change {} failed", change.request(), failed);
        change.done().completeExceptionally(ApplicationFailure.newNonRetryableFailure(
            "the change could not be completed: " + failed.getOriginalMessage(), "DependencyUnavailable"));
      }
    }
  }

  private void apply(Object request) {
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
