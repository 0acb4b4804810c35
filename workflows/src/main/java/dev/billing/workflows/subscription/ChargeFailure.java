package dev.billing.workflows.subscription;

import dev.billing.workflows.activities.DeclineDetails;
import dev.billing.workflows.activities.PaymentFailures;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;

/**
 * Why a charge attempt did not collect, read from the activity's failure.
 *
 * @param declined true when the gateway answered with a decline; otherwise either the gateway never
 *     answered (its errors outlasted the retries, or the attempt timed out: the money may or may
 *     not have moved) or it refused the request itself
 * @param hard a decline no retry can fix ({@link PaymentFailures#DECLINED_HARD}): dunning skips the
 *     remaining retries
 */
record ChargeFailure(boolean declined, String code, String message, boolean hard) {

  ChargeFailure(boolean declined, String code, String message) {
    this(declined, code, message, false);
  }

  /**
   * The gateway never answered: the charge may have gone through. Look the key up before retrying.
   */
  boolean outcomeUnknown() {
    return !declined && SubscriptionChanges.GATEWAY_UNAVAILABLE.equals(code);
  }

  static final String DEFAULT_DECLINE_CODE = "declined";

  /** Failure code of a charge refused for a reason other than a decline or an outage. */
  static final String CHARGE_REJECTED = "charge_rejected";

  static ChargeFailure of(ActivityFailure failure) {
    Throwable cause = failure.getCause();
    if (cause instanceof ApplicationFailure app && isDecline(app.getType())) {
      DeclineDetails details = detailsOf(app);
      String code =
          details == null || details.code() == null || details.code().isBlank()
              ? DEFAULT_DECLINE_CODE
              : details.code();
      String message =
          details == null || details.message() == null
              ? app.getOriginalMessage()
              : details.message();
      return new ChargeFailure(
          true, code, message, PaymentFailures.DECLINED_HARD.equals(app.getType()));
    }
    String reason =
        cause instanceof TemporalFailure temporal
            ? temporal.getOriginalMessage()
            : String.valueOf(cause);
    if (cause instanceof ApplicationFailure app
        && PaymentFailures.IDEMPOTENCY_CONFLICT.equals(app.getType())) {
      // Proof that a request with the key exists, not a decline: its outcome is looked up.
      return new ChargeFailure(
          false,
          SubscriptionChanges.GATEWAY_UNAVAILABLE,
          "the gateway holds an earlier request with this key: " + reason);
    }
    if (cause instanceof ApplicationFailure app
        && app.isNonRetryable()
        && !PaymentFailures.GATEWAY_UNAVAILABLE.equals(app.getType())) {
      // A deliberate refusal that is not the customer's decline (e.g. the gateway rejected the
      // request itself): keep its type for the operator. Retryable errors that ran out of
      // attempts fall through to gateway_unavailable: their outcome is unknown.
      return new ChargeFailure(false, CHARGE_REJECTED, app.getType() + ": " + reason);
    }
    return new ChargeFailure(
        false, SubscriptionChanges.GATEWAY_UNAVAILABLE, "no answer from the gateway: " + reason);
  }

  private static boolean isDecline(String type) {
    return PaymentFailures.DECLINED.equals(type) || PaymentFailures.DECLINED_HARD.equals(type);
  }

  private static DeclineDetails detailsOf(ApplicationFailure failure) {
    if (failure.getDetails() == null || failure.getDetails().getSize() == 0) {
      return null;
    }
    try {
      return failure.getDetails().get(DeclineDetails.class);
    } catch (RuntimeException unreadable) {
      // A decline is still a decline when its details are malformed; the code falls back below.
      return null;
    }
  }
}
