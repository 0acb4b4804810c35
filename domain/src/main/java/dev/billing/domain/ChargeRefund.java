package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One refund of a charge as the gateway lists it, whoever made it: billing (its key is in the
 * refund's metadata) or someone in the gateway's dashboard (no key of ours).
 *
 * @param refundId the gateway's id: the identity of the refund wherever it is read from
 * @param idempotencyKey billing's refund key when billing made it; null for a refund made outside
 * @param createdAt when the gateway made it; null when the reader does not tell
 */
public record ChargeRefund(
    String refundId, Money amount, String idempotencyKey, Instant createdAt) {

  public ChargeRefund {
    Objects.requireNonNull(refundId, "refundId");
    Objects.requireNonNull(amount, "amount");
  }
}
