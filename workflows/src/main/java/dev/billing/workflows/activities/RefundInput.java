package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import java.util.Objects;

/**
 * One refund of (part of) a collected period.
 *
 * @param idempotencyKey the same on every retry of this refund (see {@link dev.billing.domain.BillingIds#refundKey})
 * @param transactionId the gateway's id of the charge that collected the period
 * @param reason for the history and the gateway's records; may be null
 */
public record RefundInput(String accountId, String subscriptionId, long cycle, String transactionId,
    Money amount, String idempotencyKey, String reason) {
  public RefundInput {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }
}
