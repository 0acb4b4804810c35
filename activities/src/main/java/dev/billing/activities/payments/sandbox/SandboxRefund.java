package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import java.time.Instant;

/**
 * One refund the sandbox made (replays of its idempotency key are not new refunds).
 *
 * @param reason null when the request gave none
 */
public record SandboxRefund(
    String idempotencyKey,
    String refundId,
    String transactionId,
    Money amount,
    RefundRequest.Reason reason,
    Instant at) {}
