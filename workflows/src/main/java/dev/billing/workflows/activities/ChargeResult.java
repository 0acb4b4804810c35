package dev.billing.workflows.activities;

import java.time.Instant;

/**
 * A successful charge.
 *
 * @param transactionId the gateway's id of the charge
 * @param processedAt when the gateway processed it
 * @param replayed true when the gateway answered from its idempotency record of an earlier call
 * @param pending true when the charge settles later (a bank debit): the outcome arrives as a {@link
 *     dev.billing.domain.PaymentEvent}, or from {@code LookUpCharge} when none arrives
 */
public record ChargeResult(
    String transactionId, Instant processedAt, boolean replayed, boolean pending) {

  /** A charge that settled at once (cards). */
  public ChargeResult(String transactionId, Instant processedAt, boolean replayed) {
    this(transactionId, processedAt, replayed, false);
  }
}
