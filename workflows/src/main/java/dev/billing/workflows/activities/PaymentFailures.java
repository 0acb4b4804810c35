package dev.billing.workflows.activities;

/** ApplicationFailure types that payment activities raise; the workflow switches on them. */
public final class PaymentFailures {
  private PaymentFailures() {}

  /**
   * A soft decline: the gateway refused the charge, but a later attempt may succeed (insufficient
   * funds, do-not-honor, "try again later"; the classification lives in the activities'
   * DeclineCodes). Not retried by Temporal; the workflow's dunning schedule retries the period on
   * later days. Details: {@link DeclineDetails}.
   */
  public static final String DECLINED = "PaymentDeclined";

  /**
   * The gateway refused the charge for a reason no retry can fix (stolen or lost card, closed
   * account, fraud, do-not-honor with "do not retry" advice). Not retried by Temporal, and the
   * workflow skips the remaining dunning retries of the period: it goes straight to the dunning
   * policy's final outcome. Details: {@link DeclineDetails}.
   */
  public static final String DECLINED_HARD = "PaymentDeclinedHard";

  /** The gateway failed (5xx, timeout, throttling). Retried by Temporal with backoff. */
  public static final String GATEWAY_UNAVAILABLE = "GatewayUnavailable";

  /**
   * The gateway refused the request because its idempotency key was used before with other
   * parameters: a request with the key exists and its outcome is unknown. Not retried (the same
   * request gets the same answer); the workflow looks the key up, as after an outage.
   */
  public static final String IDEMPOTENCY_CONFLICT = "IdempotencyConflict";

  /** The gateway refused a refund (more than is left to refund, a charge that holds no money). */
  public static final String REFUND_REFUSED = "RefundRefused";
}
