package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One refund asked of a period's money, kept on the period item (the system of record): written
 * before its key is sent, completed with the gateway's refund id when the gateway answers. A
 * request retried after the workflow that took it has ended finds it here, so it is never sent as a
 * new refund once the gateway has forgotten the key (24 hours).
 *
 * @param idempotencyKey the refund's key ({@link BillingIds#refundKey}), derived from the request
 *     id
 * @param requestId the request that asked for it (the Idempotency-Key, or the cancellation's)
 * @param transactionId the charge refunded: the period's own, or an upgrade's charged within it
 * @param sentAt when the key was first sent (a lower bound): the gateway replays it for 24 hours
 * @param refundId the gateway's id; null while the outcome is not known (the key may have been
 *     sent)
 */
public record PeriodRefund(
    String idempotencyKey,
    String requestId,
    String transactionId,
    Money amount,
    Instant sentAt,
    String refundId) {

  public PeriodRefund {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(sentAt, "sentAt");
  }

  /** The gateway answered with a refund: the money went back. */
  public boolean made() {
    return refundId != null;
  }

  public PeriodRefund madeAs(String id, Money refunded) {
    return new PeriodRefund(idempotencyKey, requestId, transactionId, refunded, sentAt, id);
  }
}
