package dev.billing.api.views;

import dev.billing.activities.views.PaymentMethodView;
import dev.billing.activities.views.Timestamps;
import dev.billing.store.DuePayment;

/** A subscription whose payment is due on the requested date (GSI-2). */
public record DuePaymentView(
    String accountId,
    String subscriptionId,
    String sku,
    String email,
    int billingDay,
    String amount,
    String currency,
    PaymentMethodView paymentMethod,
    String nextPaymentDate,
    String lastPaymentAt) {

  public static DuePaymentView of(DuePayment d) {
    return new DuePaymentView(
        d.accountId(),
        d.subscriptionId(),
        d.sku(),
        d.email(),
        d.paymentDay(),
        d.amount() == null ? null : d.amount().toPlainString(),
        d.amount() == null ? null : d.amount().currency(),
        d.paymentMethod() == null ? null : new PaymentMethodView(d.paymentMethod().mask()),
        Timestamps.date(d.nextPaymentDate()),
        Timestamps.instant(d.lastPaymentAt()));
  }
}
