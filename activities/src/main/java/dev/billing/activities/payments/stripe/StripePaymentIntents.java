package dev.billing.activities.payments.stripe;

import com.stripe.model.Charge;
import com.stripe.model.Dispute;
import com.stripe.model.PaymentIntent;
import com.stripe.model.StripeError;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.BankDebitReturns;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Instant;
import java.util.List;

/**
 * Reads the port's view of a PaymentIntent: its state, our metadata, its amount, what was refunded
 * of it and its failure code. Stripe leaves a disputed charge {@code succeeded}: a disputed bank
 * debit (told by its latest Charge's payment method type) is RETURNED when the dispute opens, as
 * Stripe takes the money then and an ACH return is final; a card dispute is RETURNED once lost
 * ({@code dispute_lost}, as the webhook reads charge.dispute.closed) and SUCCEEDED while open or
 * won, the port having no disputed state (the period records the dispute from its events).
 */
final class StripePaymentIntents {
  private StripePaymentIntents() {}

  /**
   * @param refunds the latest Charge's refunds ({@link StripeChargeDetails#refunds})
   * @param dispute the latest Charge's card dispute when it is disputed; null otherwise
   */
  static GatewayChargeState state(
      PaymentIntent intent, List<ChargeRefund> refunds, Dispute dispute) {
    Money amount = amount(intent);
    Charge charge = intent.getLatestChargeObject();
    Money refunded =
        charge != null && charge.getAmountRefunded() != null
            ? StripeAmounts.fromStripe(charge.getAmountRefunded(), intent.getCurrency())
            : Money.zero(amount.currency());
    StripeMetadata.Owner ours = StripeMetadata.ours(intent.getMetadata());
    String key =
        intent.getMetadata() == null
            ? null
            : intent.getMetadata().get(GatewayChargeRequest.IDEMPOTENCY_KEY);
    Instant created = Instant.ofEpochSecond(intent.getCreated());
    StripeError error = intent.getLastPaymentError();
    Status status;
    String code = null;
    String message = null;
    Instant returnedAt = null;
    switch (String.valueOf(intent.getStatus())) {
      case "succeeded" -> {
        if (charge != null
            && Boolean.TRUE.equals(charge.getDisputed())
            && BankDebitReturns.isReturn(
                charge.getPaymentMethodDetails() == null
                    ? null
                    : charge.getPaymentMethodDetails().getType(),
                null,
                charge.getId())) {
          status = Status.RETURNED;
          code = "disputed";
          message = "The charge was disputed (a bank debit: returned) by the customer's bank.";
        } else if (dispute != null && "lost".equals(dispute.getStatus())) {
          status = Status.RETURNED;
          code = StripePaymentEvents.DISPUTE_LOST;
          message =
              "dispute lost: "
                  + (dispute.getReason() != null ? dispute.getReason() : "no reason given");
          // Stripe withdraws the disputed amount when the dispute opens and, lost, keeps it;
          // the Dispute does not say when it was decided.
          returnedAt =
              dispute.getCreated() == null ? null : Instant.ofEpochSecond(dispute.getCreated());
        } else {
          status = Status.SUCCEEDED;
        }
      }
      case "processing", "requires_capture" -> status = Status.PENDING;
      case "canceled" -> {
        status = Status.FAILED;
        code = intent.getCancellationReason() != null ? intent.getCancellationReason() : "canceled";
        message = "The PaymentIntent was canceled.";
      }
      case "requires_action" -> {
        status = Status.FAILED;
        code = "authentication_required";
        message = "The payment needs the customer to authenticate.";
      }
      default -> {
        status = Status.FAILED;
        code = error != null ? failureCode(error) : intent.getStatus();
        message = error != null ? error.getMessage() : "PaymentIntent is " + intent.getStatus();
      }
    }
    return new GatewayChargeState(
        status,
        key,
        intent.getId(),
        amount,
        refunded,
        ours == null || ours.cycle() == null ? null : ours.subscriptionId(),
        ours == null ? null : ours.cycle(),
        created,
        null,
        returnedAt,
        code,
        message,
        refunds);
  }

  /** Whether the latest Charge is a card's under a dispute, whose Dispute tells how it stands. */
  static boolean cardDisputed(Charge charge) {
    return charge != null
        && Boolean.TRUE.equals(charge.getDisputed())
        && !BankDebitReturns.isReturn(StripeChargeMethods.typeOf(charge), null, charge.getId());
  }

  static boolean hasAmount(PaymentIntent intent) {
    return intent.getAmount() != null && intent.getCurrency() != null;
  }

  static Money amount(PaymentIntent intent) {
    return StripeAmounts.fromStripe(intent.getAmount(), intent.getCurrency());
  }

  static String failureCode(StripeError error) {
    if (error == null) {
      return null;
    }
    if (error.getDeclineCode() != null && !error.getDeclineCode().isEmpty()) {
      return error.getDeclineCode();
    }
    return error.getCode() != null && !error.getCode().isEmpty() ? error.getCode() : "declined";
  }
}
