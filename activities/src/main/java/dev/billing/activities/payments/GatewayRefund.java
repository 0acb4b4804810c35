package dev.billing.activities.payments;

import dev.billing.domain.Money;
import java.time.Instant;
import java.util.Objects;

/**
 * A refund the gateway accepted. A repeated request with the same key answers the same refund.
 *
 * @param refundId the gateway's id of the refund
 * @param amount what this refund gives back
 * @param processedAt when the gateway created it (the first time, for a replay)
 * @param pending accepted but not final (Stripe: pending, requires_action): it may still fail, and
 *     the money has not reached the customer yet
 */
public record GatewayRefund(String refundId, Money amount, Instant processedAt, boolean pending) {
  public GatewayRefund {
    Objects.requireNonNull(refundId, "refundId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(processedAt, "processedAt");
  }

  /** A refund that is done. */
  public GatewayRefund(String refundId, Money amount, Instant processedAt) {
    this(refundId, amount, processedAt, false);
  }
}
