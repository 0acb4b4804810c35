package dev.billing.workflows.activities;

/** ApplicationFailure types that payment activities raise; the workflow switches on them. */
public final class PaymentFailures {
  private PaymentFailures() {}

  /** The gateway refused the charge. Not retried by Temporal; the workflow decides what follows. */
  public static final String DECLINED = "PaymentDeclined";

  /** The gateway failed (5xx, timeout, throttling). Retried by Temporal with backoff. */
  public static final String GATEWAY_UNAVAILABLE = "GatewayUnavailable";
}
