package dev.billing.activities.payments;

/**
 * Any failure reported by a {@link PaymentGateway}; callers that need not tell them apart catch
 * this.
 */
public abstract class PaymentGatewayException extends RuntimeException {
  protected PaymentGatewayException(String message, Throwable cause) {
    super(message, cause);
  }
}
