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

  /** A hard decline: the workflow skips dunning for this type (defined with the workflow's contracts). */
  public static final String PAYMENT_DECLINED_HARD = dev.billing.workflows.activities.PaymentFailures.DECLINED_HARD;
}
