package dev.billing.activities.payments.stripe;

import com.stripe.model.Charge;
import com.stripe.model.PaymentIntent;
import com.stripe.model.StripeError;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.BankDebitReturns;
import dev.billing.domain.Money;
import java.time.Instant;

/**
 * Reads the port's view of a PaymentIntent: its state (a disputed bank debit, told by its latest
 * Charge's payment method type, is RETURNED), our metadata, its amount and failure code.
 */
final class StripePaymentIntents {
  private StripePaymentIntents() {}

  static GatewayChargeState state(PaymentIntent intent) {
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
        null,
        code,
        message);
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
