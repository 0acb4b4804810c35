package dev.billing.workflows;

import dev.billing.domain.PaymentEvent;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One long-lived workflow per subscription (id {@code subscription-<subscriptionId>}). Each run
 * bills one cycle: it sleeps until the reminder, reminds, sleeps until the due date, charges,
 * records the outcome in one DynamoDB transaction, then continues as new for the next cycle.
 * Because it is the only writer of its subscription, no lock is needed around its writes.
 */
@WorkflowInterface
public interface SubscriptionWorkflow {

  String TYPE = "Subscription";

  @WorkflowMethod(name = TYPE)
  SubscriptionState run(SubscriptionInput input);

  /** Where the subscription is and what it waits for. */
  @QueryMethod(name = "state")
  SubscriptionState state();

  /**
   * Completes once the subscription is in the system of record; the API uses it with
   * update-with-start.
   */
  @UpdateMethod(name = "created")
  SubscriptionState created();

  /**
   * Ends the subscription now (no reminder and no charge after it; with refundUnused the unused
   * days of the paid period are refunded), or at period end (it stays active until its paid-through
   * date, then ends without charging). Completes once recorded.
   */
  @UpdateMethod(name = "cancel")
  SubscriptionState cancel(CancelRequest request);

  @UpdateValidatorMethod(updateName = "cancel")
  void validateCancel(CancelRequest request);

  /**
   * Replaces the payment method (token and mask only). During dunning the unpaid period is retried
   * at once with the new method. Completes once recorded.
   */
  @UpdateMethod(name = "changePaymentMethod")
  SubscriptionState changePaymentMethod(PaymentMethodChange change);

  @UpdateValidatorMethod(updateName = "changePaymentMethod")
  void validateChangePaymentMethod(PaymentMethodChange change);

  /** Stops reminders and charges for some cycles, until a date, or until resumed. */
  @UpdateMethod(name = "pause")
  SubscriptionState pause(PauseRequest request);

  @UpdateValidatorMethod(updateName = "pause")
  void validatePause(PauseRequest request);

  /** Ends a pause now: billing restarts on the first due date on or after today. */
  @UpdateMethod(name = "resume")
  SubscriptionState resume(ResumeRequest request);

  @UpdateValidatorMethod(updateName = "resume")
  void validateResume(ResumeRequest request);

  /** Changes the plan now (prorated) or from the next cycle (held as a pending change). */
  @UpdateMethod(name = "changePlan")
  SubscriptionState changePlan(PlanChangeRequest request);

  @UpdateValidatorMethod(updateName = "changePlan")
  void validateChangePlan(PlanChangeRequest request);

  /**
   * Charges the oldest unpaid period now. Completes with the outcome recorded; a decline fails the
   * update with type {@link UpdateRejections#PAYMENT_DECLINED}.
   */
  @UpdateMethod(name = "payNow")
  SubscriptionState payNow(PayNowRequest request);

  @UpdateValidatorMethod(updateName = "payNow")
  void validatePayNow(PayNowRequest request);

  /** Forgives an unpaid period (WAIVED). */
  @UpdateMethod(name = "waivePeriod")
  SubscriptionState waivePeriod(WaiveRequest request);

  @UpdateValidatorMethod(updateName = "waivePeriod")
  void validateWaivePeriod(WaiveRequest request);

  /** Refunds (part of) a collected period through the gateway (REFUNDED). */
  @UpdateMethod(name = "refundPeriod")
  SubscriptionState refundPeriod(RefundRequest request);

  @UpdateValidatorMethod(updateName = "refundPeriod")
  void validateRefundPeriod(RefundRequest request);

  /** Moves the billing anchor to another day of the month. */
  @UpdateMethod(name = "changeBillingDay")
  SubscriptionState changeBillingDay(BillingDayChange request);

  @UpdateValidatorMethod(updateName = "changeBillingDay")
  void validateChangeBillingDay(BillingDayChange request);

  /**
   * Changes the customer's email (clearing a recorded bounce), locale or time zone. A new zone
   * keeps the cycle and its calendar due date and moves the run's timers to that date there.
   */
  @UpdateMethod(name = "changeCustomer")
  SubscriptionState changeCustomer(CustomerChange change);

  @UpdateValidatorMethod(updateName = "changeCustomer")
  void validateChangeCustomer(CustomerChange change);

  /**
   * Bills a cancelled subscription again from the first due date on or after today (the API starts
   * an ended run again for it), or takes back a cancellation scheduled at period end. Moves no
   * money itself.
   */
  @UpdateMethod(name = "reactivate")
  SubscriptionState reactivate(ReactivateRequest request);

  @UpdateValidatorMethod(updateName = "reactivate")
  void validateReactivate(ReactivateRequest request);

  /** A gateway event about one of this subscription's charges (webhook or replay poller). */
  @SignalMethod(name = "paymentEvent")
  void paymentEvent(PaymentEvent event);
}
