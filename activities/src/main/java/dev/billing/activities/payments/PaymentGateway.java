package dev.billing.activities.payments;

/**
 * The payment service provider as the billing system needs it. One request record and one result
 * record per operation, and failures as {@link PaymentGatewayException} subtypes, so refunds,
 * lookups by idempotency key and event listing can be added the same way, and a Stripe adapter maps
 * its error classes onto the same exceptions.
 *
 * <p>Every operation that moves money takes an idempotency key: the gateway must answer a repeated
 * key with the outcome it stored the first time and never move money twice.
 */
public interface PaymentGateway {

  /**
   * Charges a payment method.
   *
   * @throws PaymentDeclinedException the issuer or the gateway refused the charge; retrying the same
   *     request will not help
   * @throws GatewayUnavailableException the gateway could not be reached or failed; the outcome is
   *     unknown and the same request (same key) may be retried
   * @throws InvalidGatewayRequestException the request is malformed or reuses a key with different
   *     parameters
   */
  GatewayCharge charge(GatewayChargeRequest request);
}
