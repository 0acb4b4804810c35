package dev.billing.activities.views;

import dev.billing.domain.Receipt;

/** Proof of one successful charge. */
public record ReceiptView(
    String subscriptionId,
    long cycle,
    String sku,
    String amount,
    String currency,
    String processedAt,
    String transactionId,
    PaymentMethodView paymentMethod,
    String expiresAt) {

  public static ReceiptView of(Receipt r) {
    return new ReceiptView(
        r.subscriptionId(),
        r.cycle(),
        r.sku(),
        r.amount().toPlainString(),
        r.amount().currency(),
        Timestamps.instant(r.processedAt()),
        r.transactionId(),
        new PaymentMethodView(r.paymentMask()),
        Timestamps.instant(r.expiresAt()));
  }
}
