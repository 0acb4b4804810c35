package dev.billing.activities.payments.stripe;

import static dev.billing.activities.payments.stripe.StripePaymentIntents.failureCode;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.model.StripeError;
import com.stripe.param.PaymentIntentCreateParams;
import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A charge on Stripe: one PaymentIntent per idempotency key, created and confirmed in one call
 * off-session, and its status read as the port's answer (see {@link StripeGateway}).
 */
final class StripeCharges {
  // The gateway's logger: operators filter Stripe's calls by that one name.
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  private final StripeClient client;

  StripeCharges(StripeClient client) {
    this.client = client;
  }

  GatewayCharge charge(GatewayChargeRequest request) {
    String key = request.idempotencyKey();
    StripePaymentMethodToken token;
    try {
      token = StripePaymentMethodToken.parse(request.paymentMethodToken());
    } catch (IllegalArgumentException e) {
      throw new PaymentDeclinedException(
          "invalid_payment_method", e.getMessage(), DeclineKind.HARD);
    }
    PaymentIntent intent;
    try {
      intent =
          client
              .v1()
              .paymentIntents()
              .create(params(request, token), IdempotentRequests.idempotent(key));
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "charge " + key, token.paymentMethod(), token.customer());
    }
    boolean replayed = IdempotentRequests.replayed(intent);
    log.debug(
        "Stripe charge {}: {} {}{}",
        key,
        intent.getId(),
        intent.getStatus(),
        replayed ? " (replayed)" : "");
    Instant created = Instant.ofEpochSecond(intent.getCreated());
    switch (String.valueOf(intent.getStatus())) {
      case "succeeded":
        return new GatewayCharge(intent.getId(), created, replayed, false);
      case "processing":
        return new GatewayCharge(intent.getId(), created, replayed, true);
      case "requires_payment_method":
        throw decline(intent.getLastPaymentError(), token);
      case "requires_action":
        // Off-session confirmation normally fails with authentication_required instead; if the
        // intent waits for the customer anyway, the customer has to act: a hard decline.
        throw new PaymentDeclinedException(
            "authentication_required",
            "The payment needs the customer to authenticate.",
            DeclineKind.HARD);
      default:
        throw new InvalidGatewayRequestException(
            InvalidGatewayRequestException.UNEXPECTED_STATE,
            "PaymentIntent "
                + intent.getId()
                + " is "
                + intent.getStatus()
                + " after an off-session confirmation");
    }
  }

  private static PaymentIntentCreateParams params(
      GatewayChargeRequest request, StripePaymentMethodToken token) {
    PaymentIntentCreateParams.Builder params =
        PaymentIntentCreateParams.builder()
            .setAmount(StripeAmounts.toStripe(request.amount()))
            .setCurrency(StripeAmounts.currency(request.amount()))
            .setPaymentMethod(token.paymentMethod())
            .setOffSession(true)
            .setConfirm(true)
            .setAutomaticPaymentMethods(
                PaymentIntentCreateParams.AutomaticPaymentMethods.builder()
                    .setEnabled(true)
                    .setAllowRedirects(
                        PaymentIntentCreateParams.AutomaticPaymentMethods.AllowRedirects.NEVER)
                    .build());
    if (token.customer() != null) {
      params.setCustomer(token.customer());
    }
    if (request.description() != null) {
      params.setDescription(request.description());
    }
    request.metadata().forEach(params::putMetadata);
    params.putMetadata(GatewayChargeRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
    return params.build();
  }

  private static PaymentDeclinedException decline(
      StripeError error, StripePaymentMethodToken token) {
    if (error == null) {
      return new PaymentDeclinedException("card_declined", "Your card was declined.");
    }
    String code = failureCode(error);
    return new PaymentDeclinedException(
        code,
        StripeErrors.redact(error.getMessage(), token.paymentMethod(), token.customer()),
        DeclineCodes.kindOf(error.getAdviceCode(), error.getDeclineCode(), error.getCode()));
  }
}
