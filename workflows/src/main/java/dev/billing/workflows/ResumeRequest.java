package dev.billing.workflows;

/**
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record ResumeRequest(String requestedBy, String requestId)
    implements UpdateRequest<ResumeRequest> {

  public ResumeRequest(String requestedBy) {
    this(requestedBy, null);
  }

  @Override
  public ResumeRequest withRequestId(String id) {
    return new ResumeRequest(requestedBy, id);
  }
}
