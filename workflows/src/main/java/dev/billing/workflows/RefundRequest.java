package dev.billing.workflows;

import dev.billing.domain.Money;

/**
 * Refund (part of) a collected period through the gateway.
 *
 * @param cycle the period's id
 * @param amount what to refund; null refunds all that is still refundable
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record RefundRequest(
    long cycle, Money amount, String reason, String requestedBy, String requestId)
    implements UpdateRequest<RefundRequest> {

  public RefundRequest(long cycle, Money amount, String reason, String requestedBy) {
    this(cycle, amount, reason, requestedBy, null);
  }

  @Override
  public RefundRequest withRequestId(String id) {
    return new RefundRequest(cycle, amount, reason, requestedBy, id);
  }
}
