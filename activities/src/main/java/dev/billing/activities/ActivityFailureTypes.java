package dev.billing.activities;

/**
 * ApplicationFailure types raised here in addition to those of {@link
 * dev.billing.workflows.activities.PaymentFailures}; each says whether it is retried.
 */
public final class ActivityFailureTypes {
  private ActivityFailureTypes() {}

  /** The store refused a write older than what it holds, and it was not a retry of that write. */
  public static final String STALE_WRITE = "StaleWrite";

  /**
   * The store refused a change as a caller mistake (dev.billing.store.InvalidChangeException).
   * Non-retryable: the same change is refused every time.
   */
  public static final String INVALID_CHANGE = "InvalidChange";

  /**
   * The gateway rejected the request itself, e.g. an idempotency key reused with another amount.
   */
  public static final String INVALID_GATEWAY_REQUEST = "InvalidGatewayRequest";

  /**
   * A hard decline: the workflow skips dunning for this type (defined with the workflow's
   * contracts).
   */
  public static final String PAYMENT_DECLINED_HARD =
      dev.billing.workflows.activities.PaymentFailures.DECLINED_HARD;

  /**
   * The mail server could not take a customer message now (unreachable, timed out, login refused,
   * 4xx). Retryable: the activity's retry policy backs off and sends it later under the same
   * Message-ID; billing never waits for it.
   */
  public static final String MAIL_SERVER_UNAVAILABLE = "MailServerUnavailable";

  /**
   * The mail server refused a message for good (5xx to MAIL FROM or DATA), not because of the
   * recipient. Non-retryable: the same message would be refused again; check the From address and
   * the relay's policy.
   */
  public static final String MAIL_REJECTED = "MailRejected";
}
