package dev.billing.workflows;

/**
 * @param reason free text kept in the history
 * @param requestedBy the principal that asked, kept in the history
 * @param atPeriodEnd keep the subscription until its paid-through date, then end it; otherwise end
 *     it now
 * @param refundUnused with an immediate cancellation, refund the unused days of the paid period
 */
public record CancelRequest(String reason, String requestedBy, boolean atPeriodEnd, boolean refundUnused) {

  /** An immediate cancellation without refund. */
  public CancelRequest(String reason, String requestedBy) {
    this(reason, requestedBy, false, false);
  }
}
