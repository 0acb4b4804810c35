package dev.billing.activities.payments;

import java.time.Instant;
import java.util.Objects;

/**
 * A successful charge.
 *
 * @param transactionId the gateway's id of the charge
 * @param processedAt when the gateway processed it (the first time, for a replay)
 * @param replayed true when the gateway answered from its idempotency record of an earlier request
 */
public record GatewayCharge(String transactionId, Instant processedAt, boolean replayed) {
  public GatewayCharge {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(processedAt, "processedAt");
  }
}
