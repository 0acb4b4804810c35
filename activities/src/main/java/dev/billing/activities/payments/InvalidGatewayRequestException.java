package dev.billing.activities.payments;

import java.util.Objects;

/**
 * The gateway rejected the request itself, like Stripe's invalid_request_error and
 * idempotency_error: a bug or bad data on our side that no retry will fix, e.g. an idempotency key
 * reused with other parameters.
 */
public class InvalidGatewayRequestException extends PaymentGatewayException {
  public static final String IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused";
  public static final String AMOUNT_TOO_SMALL = "amount_too_small";

  /** A refund larger than what is left of the charge. */
  public static final String AMOUNT_TOO_LARGE = "amount_too_large";

  /** A refund of a charge that has nothing left to refund. */
  public static final String CHARGE_ALREADY_REFUNDED = "charge_already_refunded";

  /** A refund of a charge that did not (or not yet, or no longer) hold the customer's money. */
  public static final String CHARGE_NOT_REFUNDABLE = "charge_not_refundable";

  /** The transaction id (or another referenced object) does not exist at the gateway. */
  public static final String RESOURCE_MISSING = "resource_missing";

  /** The gateway answered with a state this adapter does not expect for its requests. */
  public static final String UNEXPECTED_STATE = "unexpected_state";

  private final String code;

  public InvalidGatewayRequestException(String code, String message) {
    super(message, null);
    this.code = Objects.requireNonNull(code, "code");
  }

  public String code() {
    return code;
  }
}
