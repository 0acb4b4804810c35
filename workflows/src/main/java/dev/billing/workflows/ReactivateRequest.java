package dev.billing.workflows;

/**
 * Bills a cancelled subscription again (within the API's reactivation window), or takes back a
 * cancellation scheduled at period end.
 *
 * @param reason why, kept in the history; null when none given
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record ReactivateRequest(String reason, String requestedBy, String requestId)
    implements UpdateRequest<ReactivateRequest> {

  @Override
  public ReactivateRequest withRequestId(String id) {
    return new ReactivateRequest(reason, requestedBy, id);
  }
}
