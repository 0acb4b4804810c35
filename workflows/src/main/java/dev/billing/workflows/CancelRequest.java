package dev.billing.workflows;

/**
 * @param reason free text kept in the history
 * @param requestedBy the principal that asked, kept in the history
 * @param atPeriodEnd keep the subscription until its paid-through date, then end it; otherwise end
 *     it now
 * @param refundUnused with an immediate cancellation, refund the unused days of the paid period
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record CancelRequest(
    String reason, String requestedBy, boolean atPeriodEnd, boolean refundUnused, String requestId)
    implements UpdateRequest<CancelRequest> {

  public CancelRequest(
      String reason, String requestedBy, boolean atPeriodEnd, boolean refundUnused) {
    this(reason, requestedBy, atPeriodEnd, refundUnused, null);
  }

  /** An immediate cancellation without refund. */
  public CancelRequest(String reason, String requestedBy) {
    this(reason, requestedBy, false, false);
  }

  @Override
  public CancelRequest withRequestId(String id) {
    return new CancelRequest(reason, requestedBy, atPeriodEnd, refundUnused, id);
  }
}
