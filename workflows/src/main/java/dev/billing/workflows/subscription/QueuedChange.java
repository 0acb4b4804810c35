package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.refusal;

import dev.billing.domain.Process;
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
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.WaiveRequest;

/**
 * A change an update handler accepted, waiting in the {@link ChangeQueue} for the main thread.
 * Handlers validate and enqueue; the main thread applies at its safe points, never between a charge
 * and its record. Most kinds are applied in order by {@link ChangeQueue#applyAll}; a new payment
 * method is taken first at every safe point (it makes periods in dunning due at once, before
 * anything else is acted on), and an immediate cancellation ends the run (see {@link
 * SubscriptionWorkflowImpl}).
 */
sealed interface QueuedChange {

  UpdateRequest<?> request();

  /** Applies the change on the main thread; a refusal fails with a typed ApplicationFailure. */
  void applyTo(LifecycleOperations lifecycle);

  /** Applied by the main loop itself, not in queue order. */
  default boolean takenBySafePoint() {
    return false;
  }

  record Pause(PauseRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.pause(request, actor(request.requestedBy()));
    }
  }

  record Resume(ResumeRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.resume(actor(request.requestedBy()), Process.API);
    }
  }

  record Plan(PlanChangeRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.changePlan(request, actor(request.requestedBy()));
    }
  }

  record BillingDay(BillingDayChange request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.changeBillingDay(request, actor(request.requestedBy()));
    }
  }

  record Customer(CustomerChange request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.changeCustomer(request, actor(request.requestedBy()));
    }
  }

  record PayNow(PayNowRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.payNow(request);
    }
  }

  record Waive(WaiveRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.waive(request, actor(request.requestedBy()));
    }
  }

  record Refund(RefundRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.refund(request, actor(request.requestedBy()));
    }
  }

  record Reactivate(ReactivateRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.reactivate(actor(request.requestedBy()), request.reason());
    }
  }

  record CancelAtPeriodEnd(CancelRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      lifecycle.cancelAtPeriodEnd(request, actor(request.requestedBy()));
    }
  }

  /** Ends the run: the main loop cancels at its next safe point, before any other queued change. */
  record CancelNow(CancelRequest request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      throw refusal("subscription is already cancelled");
    }

    @Override
    public boolean takenBySafePoint() {
      return true;
    }
  }

  /** Recorded first at every safe point, even while a cancellation is under way. */
  record NewPaymentMethod(PaymentMethodChange request) implements QueuedChange {
    @Override
    public void applyTo(LifecycleOperations lifecycle) {
      throw refusal("subscription was cancelled before the payment method change was recorded");
    }

    @Override
    public boolean takenBySafePoint() {
      return true;
    }
  }

  private static String actor(String requestedBy) {
    return requestedBy == null || requestedBy.isBlank()
        ? SubscriptionChanges.API_ACTOR
        : requestedBy;
  }
}
