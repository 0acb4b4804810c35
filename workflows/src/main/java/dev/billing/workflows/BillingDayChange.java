package dev.billing.workflows;

/**
 * Move the billing anchor to another day of the month.
 *
 * @param billingDay 1-31, clamped to the end of shorter months
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record BillingDayChange(int billingDay, String requestedBy, String requestId)
    implements UpdateRequest<BillingDayChange> {

  public BillingDayChange(int billingDay, String requestedBy) {
    this(billingDay, requestedBy, null);
  }

  @Override
  public BillingDayChange withRequestId(String id) {
    return new BillingDayChange(billingDay, requestedBy, id);
  }
}
