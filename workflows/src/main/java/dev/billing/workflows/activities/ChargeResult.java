package dev.billing.workflows.activities;

import java.time.Instant;

/**
 * A successful charge.
 *
 * @param transactionId the gateway's id of the charge
 * @param processedAt when the gateway processed it
 * @param replayed true when the gateway answered from its idempotency record of an earlier call
 */
public record ChargeResult(String transactionId, Instant processedAt, boolean replayed) {}
