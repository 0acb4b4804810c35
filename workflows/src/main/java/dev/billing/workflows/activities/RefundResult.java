package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import java.time.Instant;

/**
 * A refund the gateway accepted (the same answer for a retried key).
 *
 * @param pending accepted but not final: the gateway may still report it failed
 */
public record RefundResult(String refundId, Money amount, Instant processedAt, boolean pending) {
  /** A refund that is done. */
  public RefundResult(String refundId, Money amount, Instant processedAt) {
    this(refundId, amount, processedAt, false);
  }
}
