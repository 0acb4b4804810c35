package dev.billing.workflows;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One long-lived workflow per subscription (id {@code subscription-<subscriptionId>}). Each run bills
 * one cycle: it sleeps until the reminder, reminds, sleeps until the due date, charges, records the
 * outcome in one DynamoDB transaction, then continues as new for the next cycle. Because it is the
 * only writer of its subscription, it is also the per-subscription lock that seed 004 kept in a
 * separate table.
 */
@WorkflowInterface
public interface SubscriptionWorkflow {

  String TYPE = "Subscription";

  @WorkflowMethod(name = TYPE)
  SubscriptionState run(SubscriptionInput input);

  /** Where the subscription is and what it waits for. */
  @QueryMethod(name = "state")
  SubscriptionState state();

  /** Completes once the subscription is in the system of record; the API uses it with update-with-start. */
  @UpdateMethod(name = "created")
  SubscriptionState created();

  /** Ends the subscription now: no reminder and no charge after it. Completes once recorded. */
  @UpdateMethod(name = "cancel")
  SubscriptionState cancel(CancelRequest request);

  @UpdateValidatorMethod(updateName = "cancel")
  void validateCancel(CancelRequest request);

  /**
   * Replaces the payment method (token and mask only). During dunning the unpaid period is retried at
   * once with the new method. Completes once recorded.
   */
  @UpdateMethod(name = "changePaymentMethod")
  SubscriptionState changePaymentMethod(PaymentMethodChange change);

  @UpdateValidatorMethod(updateName = "changePaymentMethod")
  void validateChangePaymentMethod(PaymentMethodChange change);

  /** A gateway event about one of this subscription's charges (webhook or replay poller). */
  @SignalMethod(name = "paymentEvent")
  void paymentEvent(PaymentEvent event);
}
