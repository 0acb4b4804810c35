package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.sandbox.SandboxCharge.Outcome;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethod.Behaviour;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** What the sandbox makes of a new charge request: the scripted behaviour of its payment method. */
final class ChargeOutcomes {
  private ChargeOutcomes() {}

  /**
   * @param method null for a token the sandbox does not know (declined as Stripe does)
   * @param earlier every charge made so far: a key of another shape counts its period's attempts
   */
  static SandboxCharge process(
      GatewayChargeRequest request,
      SandboxPaymentMethod method,
      String transactionId,
      Instant at,
      List<SandboxCharge> earlier) {
    String token = request.paymentMethodToken();
    Outcome outcome = Outcome.SUCCEEDED;
    String code = null;
    String message = null;
    Instant settlesAt = null;
    Instant returnsAt = null;
    if (method == null) {
      outcome = Outcome.DECLINED;
      code = "invalid_payment_method";
      message = "No such payment method: '" + token + "'";
    } else {
      switch (method.behaviour()) {
        case DECLINES -> {
          outcome = Outcome.DECLINED;
          code = method.declineCode();
          message = method.declineMessage();
        }
        case RECOVERS_AFTER -> {
          if (attempt(request, earlier) <= method.count()) {
            outcome = Outcome.DECLINED;
            code = method.declineCode();
            message = method.declineMessage();
          }
        }
        case BANK_DEBIT, BANK_DEBIT_RETURNED -> {
          outcome = Outcome.PENDING;
          settlesAt = at.plus(SandboxPaymentMethods.SETTLEMENT_DELAY);
          if (method.behaviour() == Behaviour.BANK_DEBIT_RETURNED) {
            returnsAt = settlesAt.plus(SandboxPaymentMethods.RETURN_DELAY);
          }
        }
        case SUCCEEDS, TRANSIENT_ERRORS, SERVER_ERROR, TIMEOUT_AFTER_CHARGE, DISPUTED -> {}
      }
    }
    return new SandboxCharge(
        request.idempotencyKey(),
        transactionId,
        request.amount(),
        token,
        outcome,
        code,
        message,
        at,
        request.subscriptionId(),
        request.cycle(),
        settlesAt,
        returnsAt);
  }

  /**
   * The collection attempt within its period: the key's last segment ({@code
   * charge:<subscription>:<cycle>:<attempt>}). A key of another shape counts the period's earlier
   * charges instead, the period being the subscription and cycle of the metadata.
   */
  private static int attempt(GatewayChargeRequest request, List<SandboxCharge> charges) {
    String key = request.idempotencyKey();
    String last = key.substring(key.lastIndexOf(':') + 1);
    if (!last.isEmpty() && last.length() <= 9 && last.chars().allMatch(Character::isDigit)) {
      return Integer.parseInt(last);
    }
    long earlier =
        charges.stream()
            .filter(
                c ->
                    c.subscriptionId() != null
                        && c.subscriptionId().equals(request.subscriptionId())
                        && Objects.equals(c.cycle(), request.cycle()))
            .count();
    return (int) earlier + 1;
  }
}
