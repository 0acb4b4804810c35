package dev.billing.activities.payments.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Charge;
import dev.billing.domain.ChargeRefund;
import java.util.List;
import java.util.Optional;

/**
 * Which payment method type a Charge was paid with ({@code payment_method_details.type}, e.g.
 * "us_bank_account"). A dispute does not say: its own {@code payment_method_details} names only
 * card-like methods, so whether a dispute is a returned bank debit is read from the disputed
 * Charge, by the webhook intake and by {@link StripeGateway} alike ({@code BankDebitReturns}). For
 * the webhook intake it also lists a refunded Charge's refunds, which Stripe's events no longer
 * embed.
 */
public final class StripeChargeMethods implements StripeWebhookReads {
  private final StripeClient client;
  private final StripeChargeDetails details;

  public StripeChargeMethods(StripeSettings settings) {
    this(StripeGateway.client(settings));
  }

  StripeChargeMethods(StripeClient client) {
    this.client = client;
    this.details = new StripeChargeDetails(client);
  }

  @Override
  public Optional<String> paymentMethodType(String chargeId) {
    return typeOf(chargeId);
  }

  /**
   * @throws dev.billing.activities.payments.PaymentGatewayException when Stripe cannot be read
   */
  @Override
  public List<ChargeRefund> refunds(String chargeId) {
    return details.refunds(chargeId);
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
