package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.domain.Money;
import java.time.Instant;

/**
 * The refunds Stripe refuses, with its codes and words: of a charge that holds no money (pending,
 * failed, returned) or is disputed, of nothing or another currency, of more than is left. A refused
 * refund stores nothing for its key, so the same key may be sent again with another amount.
 */
final class RefundRules {
  private RefundRules() {}

  /**
   * @param refunded what the charge's earlier refunds took back
   * @throws InvalidGatewayRequestException when Stripe would refuse it
   */
  static void check(SandboxCharge charge, Money amount, Money refunded, Instant now) {
    Status status = charge.statusAt(now);
    if (status != Status.SUCCEEDED) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_NOT_REFUNDABLE,
          "Charge " + charge.transactionId() + " is " + status + " and holds nothing to refund");
    }
    if (charge.disputedBy(now)) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_NOT_REFUNDABLE,
          "Charge " + charge.transactionId() + " has been disputed and cannot be refunded");
    }
    if (!amount.currency().equals(charge.amount().currency()) || !amount.greaterThanZero()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.AMOUNT_TOO_SMALL,
          "Refund amount must be a positive amount in "
              + charge.amount().currency()
              + ", got "
              + amount);
    }
    Money left = charge.amount().minus(refunded);
    if (!left.greaterThanZero()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.CHARGE_ALREADY_REFUNDED,
          "Charge " + charge.transactionId() + " has already been refunded.");
    }
    if (amount.minor() > left.minor()) {
      throw new InvalidGatewayRequestException(
          InvalidGatewayRequestException.AMOUNT_TOO_LARGE,
          "Refund amount ("
              + amount
              + ") is greater than unrefunded amount on charge ("
              + left
              + ")");
    }
  }
}
