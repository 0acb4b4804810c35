package dev.billing.activities.payments;

import java.util.Objects;

/**
 * The gateway rejected the request itself, like Stripe's invalid_request_error and idempotency_error:
 * a bug or bad data on our side that no retry will fix, e.g. an idempotency key reused with other
 * parameters.
 */
public class InvalidGatewayRequestException extends PaymentGatewayException {
  public static final String IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused";
  public static final String AMOUNT_TOO_SMALL = "amount_too_small";

  private final String code;

  public InvalidGatewayRequestException(String code, String message) {
    super(message, null);
    this.code = Objects.requireNonNull(code, "code");
  }

  public String code() {
    return code;
  }
}
