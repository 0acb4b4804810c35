package dev.billing.activities.payments;

/**
 * The gateway failed or could not be reached (5xx, timeout, throttling). Whether money moved is
 * unknown, so the caller retries with the same idempotency key and the gateway settles it.
 */
public class GatewayUnavailableException extends PaymentGatewayException {
  public GatewayUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
