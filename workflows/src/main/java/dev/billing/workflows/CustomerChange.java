package dev.billing.workflows;

/**
 * New details of the customer: where and in which language their messages go, and the time zone
 * whose calendar their due dates are days of. A null field is left as it is; at least one is given.
 * The API validates and normalizes each as it does at creation.
 *
 * @param email one plain mailbox; recording it clears a recorded bounce
 * @param locale a canonical BCP 47 tag
 * @param timeZone an IANA zone id
 * @param requestedBy the principal that asked, kept in the history
 * @param requestId the client's request id (see {@link UpdateRequest}); null until given one
 */
public record CustomerChange(
    String email, String locale, String timeZone, String requestedBy, String requestId)
    implements UpdateRequest<CustomerChange> {

  public CustomerChange(String email, String locale, String timeZone, String requestedBy) {
    this(email, locale, timeZone, requestedBy, null);
  }

  @Override
  public CustomerChange withRequestId(String id) {
    return new CustomerChange(email, locale, timeZone, requestedBy, id);
  }
}
