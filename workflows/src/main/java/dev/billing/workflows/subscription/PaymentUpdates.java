package dev.billing.workflows.subscription;

import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.WaiveRequest;

/**
 * The update handlers and validators about money owed or paid: pay now, waive a period, refund a
 * period and a new payment method. Validators refuse by the rules; handlers queue the change for
 * the main thread ({@link ChangeQueue}) and wait for its answer.
 */
final class PaymentUpdates {
  private final RunState run;
  private final ChangeQueue changes;
  private final LifecycleOperations lifecycle;

  PaymentUpdates(RunState run, LifecycleOperations lifecycle) {
    this.run = run;
    this.changes = run.changes;
    this.lifecycle = lifecycle;
  }

  void validatePayNow(PayNowRequest request) {
    changes.validate(ChangeQueue.identified(request), () -> lifecycle.payRefusal(run.cancelling()));
  }

  SubscriptionState payNow(PayNowRequest request) {
    return changes.submit(
        new QueuedChange.PayNow(
            ChangeQueue.identified(request == null ? new PayNowRequest(null) : request)));
  }

  void validateWaivePeriod(WaiveRequest request) {
    changes.validate(
        ChangeQueue.identified(request),
        () -> ChangeRules.waive(run.current(), request, run.cancelling()));
  }

  SubscriptionState waivePeriod(WaiveRequest request) {
    return changes.submit(new QueuedChange.Waive(ChangeQueue.identified(request)));
  }

  void validateRefundPeriod(RefundRequest request) {
    changes.validate(ChangeQueue.identified(request), () -> ChangeRules.refund(request));
  }

  SubscriptionState refundPeriod(RefundRequest request) {
    return changes.submit(new QueuedChange.Refund(ChangeQueue.identified(request)));
  }

  void validateChangePaymentMethod(PaymentMethodChange change) {
    changes.validate(
        ChangeQueue.identified(change),
        () -> ChangeRules.paymentMethod(run.current(), change, run.cancelling()));
  }

  SubscriptionState changePaymentMethod(PaymentMethodChange request) {
    PaymentMethodChange change = ChangeQueue.identified(request);
    return changes.awaitRecorded(
        new QueuedChange.NewPaymentMethod(change),
        () -> "payment method changed to " + change.paymentMethod().mask(),
        "subscription was cancelled before the payment method change was recorded");
  }
}
