package dev.billing.workflows;

/**
 * Manual repayment (process MANUAL_REPAYMENT): charge the oldest unpaid period now.
 *
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record PayNowRequest(String requestedBy, String requestId)
    implements UpdateRequest<PayNowRequest> {

  public PayNowRequest(String requestedBy) {
    this(requestedBy, null);
  }

  @Override
  public PayNowRequest withRequestId(String id) {
    return new PayNowRequest(requestedBy, id);
  }
}
