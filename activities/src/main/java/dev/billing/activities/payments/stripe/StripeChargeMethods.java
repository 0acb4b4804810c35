package dev.billing.activities.payments.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import java.util.Optional;

/**
 * Which payment method type a Charge was paid with ({@code payment_method_details.type}, e.g.
 * "us_bank_account"). A dispute does not say: its own {@code payment_method_details} names only
 * card-like methods, so whether a dispute is a returned bank debit is read from the disputed
 * Charge, by the webhook intake and by {@link StripeGateway} alike ({@code BankDebitReturns}).
 */
public final class StripeChargeMethods {
  private final StripeClient client;

  public StripeChargeMethods(StripeSettings settings) {
    this(StripeGateway.client(settings));
  }

  StripeChargeMethods(StripeClient client) {
    this.client = client;
  }

  /**
   * @return empty when the Charge has no payment method details
   * @throws dev.billing.activities.payments.PaymentGatewayException when Stripe cannot be read
   */
  public Optional<String> typeOf(String chargeId) {
    return Optional.ofNullable(typeOf(retrieve(chargeId)));
  }

  static String typeOf(Charge charge) {
    return charge.getPaymentMethodDetails() == null
        ? null
        : charge.getPaymentMethodDetails().getType();
  }

  private Charge retrieve(String chargeId) {
    try {
      return client.v1().charges().retrieve(chargeId);
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "retrieve " + chargeId);
    }
  }
}
