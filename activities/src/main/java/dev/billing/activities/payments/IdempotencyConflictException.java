package dev.billing.activities.payments;

/**
 * The gateway refused a request because its idempotency key was used before with other parameters
 * (Stripe's {@code idempotency_error}). That is proof that a request with the key exists, not a
 * decline: the outcome of that earlier request is unknown to this caller, which must ask the
 * gateway ({@link PaymentGateway#lookUp}) before it moves on to another key.
 */
public class IdempotencyConflictException extends PaymentGatewayException {
  public IdempotencyConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
