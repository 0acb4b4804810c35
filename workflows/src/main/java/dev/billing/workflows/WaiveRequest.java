package dev.billing.workflows;

/**
 * Forgive an unpaid (ERROR) period without payment.
 *
 * @param cycle the period's id
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record WaiveRequest(long cycle, String reason, String requestedBy, String requestId)
    implements UpdateRequest<WaiveRequest> {

  public WaiveRequest(long cycle, String reason, String requestedBy) {
    this(cycle, reason, requestedBy, null);
  }

  @Override
  public WaiveRequest withRequestId(String id) {
    return new WaiveRequest(cycle, reason, requestedBy, id);
  }
}
