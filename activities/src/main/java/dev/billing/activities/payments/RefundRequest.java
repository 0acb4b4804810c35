package dev.billing.activities.payments;

import dev.billing.domain.Money;
import java.util.Objects;

/**
 * Gives back all or part of a charge.
 *
 * @param idempotencyKey the same for every retry of one refund; a second refund of the same charge
 *     needs a new key
 * @param transactionId the charge's {@link GatewayCharge#transactionId()}
 * @param amount at most the charged amount minus earlier refunds, in the charge's currency
 * @param reason null when none applies
 */
public record RefundRequest(
    String idempotencyKey, String transactionId, Money amount, Reason reason) {

  /** The reasons the gateways accept (Stripe's set). */
  public enum Reason {
    REQUESTED_BY_CUSTOMER,
    DUPLICATE,
    FRAUDULENT
  }

  public RefundRequest {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
  }
}
