package dev.billing.activities.payments;

import java.time.Instant;
import java.util.List;

/**
 * The payment service provider as the billing system needs it. One request record and one result
 * record per operation, and failures as {@link PaymentGatewayException} subtypes, so every adapter
 * (sandbox, Stripe) maps its own errors onto the same exceptions.
 *
 * <p>Every operation that moves money takes an idempotency key: the gateway must answer a repeated
 * key with the outcome it stored the first time and never move money twice. The read operations
 * move nothing and may be retried freely.
 */
public interface PaymentGateway {

  /**
   * Charges a payment method. A card charge settles at once; a bank debit comes back with {@link
   * GatewayCharge#pending()} true and settles (or fails) later, which {@link #lookUp} and {@link
   * #listEvents} tell.
   *
   * @throws PaymentDeclinedException the issuer or the gateway refused the charge; retrying the
   *     same request will not help, and a {@linkplain PaymentDeclinedException#hard() hard} decline
   *     will not pass on a later attempt either
   * @throws GatewayUnavailableException the gateway could not be reached or failed; the outcome is
   *     unknown and the same request (same key) may be retried
   * @throws IdempotencyConflictException the key was used before with other parameters: the outcome
   *     of that request is unknown, {@link #lookUp} tells it
   * @throws InvalidGatewayRequestException the request is malformed
   */
  GatewayCharge charge(GatewayChargeRequest request);

  /**
   * Gives back all or part of a successful charge.
   *
   * @throws InvalidGatewayRequestException unknown transaction, a charge that holds no money (not
   *     settled, failed, returned), more than is left to refund
   * @throws IdempotencyConflictException the key was used before with other parameters
   * @throws GatewayUnavailableException outcome unknown; retry with the same key
   */
  GatewayRefund refund(RefundRequest request);

  /**
   * What became of the charge created with the query's key: the answer to an unknown outcome (a
   * charge call that timed out, an idempotency conflict) and to a settlement event that never came.
   *
   * <p>The read must not lag the gateway's writes: a charge created before this call is always
   * seen, so NOT_FOUND is proof that no charge with the key was created since {@link
   * ChargeQuery#sentFrom()}. An adapter lists by creation time (never Stripe's search, which lags
   * by a minute and up to an hour) and never relies on an idempotency record, which the gateway
   * forgets after 24 hours. When several charges carry the key (it was reused after the gateway
   * forgot it) the one that moved money wins.
   *
   * @return status {@link GatewayChargeState.Status#NOT_FOUND} when no charge has this key
   * @throws GatewayUnavailableException the gateway could not answer; ask again
   */
  GatewayChargeState lookUp(ChargeQuery query);

  /**
   * Charges created in {@code [from, to)}, oldest first, each as of now: for reconciliation against
   * the receipts and periods the store holds.
   */
  List<GatewayChargeState> listCharges(Instant from, Instant to);

  /**
   * Events about our charges that occurred in {@code [from, to)} (and not after the gateway's now),
   * oldest first; ties by id. The poller for missed webhooks reads this.
   */
  List<GatewayEvent> listEvents(Instant from, Instant to);
}
