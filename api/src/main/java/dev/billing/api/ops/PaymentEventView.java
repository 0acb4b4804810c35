package dev.billing.api.ops;

import dev.billing.activities.views.Timestamps;
import dev.billing.store.events.StoredEvent;
import java.util.Map;

/**
 * One gateway event as billing stored it, for operators: what the gateway said about which charge,
 * and when it reached billing (a webhook, or reconciliation's replay: {@code summary.receivedBy}).
 *
 * @param type the provider's own event type ({@code charge.succeeded}, {@code
 *     payment_intent.payment_failed}...)
 * @param paymentEvent what billing read it as (CHARGE_SUCCEEDED, CHARGE_FAILED, CHARGE_RETURNED,
 *     CHARGE_REFUNDED); null for a type billing does not act on
 * @param summary amount, currency, failure code and message as the provider sent them (card numbers
 *     redacted)
 */
public record PaymentEventView(
    String provider,
    String eventId,
    String type,
    String paymentEvent,
    String subscriptionId,
    Long cycle,
    String idempotencyKey,
    String transactionId,
    String occurredAt,
    String receivedAt,
    Map<String, String> summary) {

  public static PaymentEventView of(StoredEvent e) {
    return new PaymentEventView(
        e.provider(),
        e.eventId(),
        e.type(),
        e.paymentEventType() == null ? null : e.paymentEventType().name(),
        e.subscriptionId(),
        e.cycle(),
        e.idempotencyKey(),
        e.transactionId(),
        e.occurredAt() == null ? null : Timestamps.instant(e.occurredAt()),
        e.receivedAt() == null ? null : Timestamps.instant(e.receivedAt()),
        e.summary());
  }
}
