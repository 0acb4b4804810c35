package dev.billing.activities;

/**
 * ApplicationFailure types raised here in addition to those of
 * {@link dev.billing.workflows.activities.PaymentFailures}. Both are non-retryable: they mean a bug
 * or a second writer, and an operator has to look.
 */
public final class ActivityFailureTypes {
  private ActivityFailureTypes() {}

  /** The store refused a write older than what it holds, and it was not a retry of that write. */
  public static final String STALE_WRITE = "StaleWrite";

  /** The gateway rejected the request itself, e.g. an idempotency key reused with another amount. */
  public static final String INVALID_GATEWAY_REQUEST = "InvalidGatewayRequest";

  /**
   * A hard decline: the gateway refused the charge for a reason no later attempt with the same
   * payment method can fix (lost, stolen or expired card, closed account, "do not try again"
   * advice; see {@link dev.billing.activities.payments.DeclineCodes}). Non-retryable and carries
   * {@link dev.billing.workflows.activities.DeclineDetails} like
   * {@link dev.billing.workflows.activities.PaymentFailures#DECLINED}, which now means a soft
   * decline only: the workflow skips dunning for this type. The same string as the workflows
   * module's {@code PaymentFailures.DECLINED_HARD}.
   */
  public static final String PAYMENT_DECLINED_HARD = "PaymentDeclinedHard";
}
