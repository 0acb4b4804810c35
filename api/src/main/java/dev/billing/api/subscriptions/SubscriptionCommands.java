package dev.billing.api.subscriptions;

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
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.WaiveRequest;

/**
 * What the resources ask of a subscription's workflow: start it, and send it each change. Each call
 * answers with the state the workflow recorded. {@link SubscriptionWorkflows} sends them to
 * Temporal; resource tests use a fake that fails the way Temporal does:
 *
 * <ul>
 *   <li>{@link io.temporal.client.WorkflowUpdateException} when the workflow refused a change
 *       ({@link SubscriptionWorkflows#failureOfType} reads why);
 *   <li>{@link io.temporal.client.WorkflowNotFoundException} when the subscription has no running
 *       workflow;
 *   <li>{@link io.temporal.client.WorkflowExecutionAlreadyStarted} from {@link #create} when a
 *       closed workflow has the subscription's id;
 *   <li>{@link NotRecordedYet} and {@link ChangeStillRunning} when the workflow did not finish in
 *       time.
 * </ul>
 */
public interface SubscriptionCommands {

  /**
   * Starts the subscription's workflow, or attaches to the running one of the same id, and returns
   * once the subscription is in the store.
   *
   * @param requestedBy the principal asking, kept in the creation's history entry
   */
  SubscriptionState create(Subscription subscription, String requestedBy);

  SubscriptionState cancel(String subscriptionId, CancelRequest request);

  SubscriptionState changePaymentMethod(String subscriptionId, PaymentMethodChange change);

  SubscriptionState pause(String subscriptionId, PauseRequest request);

  SubscriptionState resume(String subscriptionId, ResumeRequest request);

  SubscriptionState changePlan(String subscriptionId, PlanChangeRequest request);

  SubscriptionState payNow(String subscriptionId, PayNowRequest request);

  SubscriptionState waivePeriod(String subscriptionId, WaiveRequest request);

  SubscriptionState refundPeriod(String subscriptionId, RefundRequest request);

  /**
   * Refunds a period of a subscription whose workflow has ended, by running it again to apply it.
   *
   * @param ended the run's input, from the record ({@code SubscriptionRestart.ended})
   */
  SubscriptionState refundAfterEnd(SubscriptionInput ended, RefundRequest request);

  SubscriptionState changeBillingDay(String subscriptionId, BillingDayChange request);

  SubscriptionState changeCustomer(String subscriptionId, CustomerChange change);

  /** Takes back a cancellation at period end; to a running workflow. */
  SubscriptionState reactivate(String subscriptionId, ReactivateRequest request);

  /**
   * Reactivates a subscription whose workflow has ended, by running it again to apply it; the run
   * then bills on instead of ending.
   *
   * @param ended the run's input, from the record ({@code SubscriptionRestart.ended})
   */
  SubscriptionState reactivateAfterEnd(SubscriptionInput ended, ReactivateRequest request);
}
