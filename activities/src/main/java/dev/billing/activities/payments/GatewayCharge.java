package dev.billing.activities.payments;

import java.time.Instant;
import java.util.Objects;

/**
 * A charge the gateway accepted.
 *
 * @param transactionId the gateway's id of the charge
 * @param processedAt when the gateway processed it (the first time, for a replay)
 * @param replayed true when the gateway answered from its idempotency record of an earlier request
 * @param pending true when the money has not settled yet (bank debits): the outcome arrives later
 *     as a {@link GatewayEvent}, and {@link PaymentGateway#lookUp} tells it on request
 */
public record GatewayCharge(
    String transactionId, Instant processedAt, boolean replayed, boolean pending) {

  public GatewayCharge {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(processedAt, "processedAt");
  }

  /** A charge that settled at once (cards). */
  public GatewayCharge(String transactionId, Instant processedAt, boolean replayed) {
    this(transactionId, processedAt, replayed, false);
  }
}
