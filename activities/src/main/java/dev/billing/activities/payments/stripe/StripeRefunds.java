package dev.billing.activities.payments.stripe;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Refund;
import com.stripe.param.RefundCreateParams;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.RefundRequest;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A refund on Stripe: a Refund of the PaymentIntent with its own idempotency key, whose own status
 * decides: succeeded is done, pending and requires_action are accepted but not final (Stripe may
 * still fail them), failed and canceled are a refusal.
 */
final class StripeRefunds {
  // The gateway's logger: operators filter Stripe's calls by that one name.
  private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

  /** The port's refusal code for a refund Stripe reports as failed or canceled. */
  static final String REFUND_FAILED = "refund_failed";

  private final StripeClient client;

  StripeRefunds(StripeClient client) {
    this.client = client;
  }

  GatewayRefund refund(RefundRequest request) {
    RefundCreateParams.Builder params =
        RefundCreateParams.builder()
            .setPaymentIntent(request.transactionId())
            .setAmount(StripeAmounts.toStripe(request.amount()))
            .putMetadata(GatewayChargeRequest.IDEMPOTENCY_KEY, request.idempotencyKey());
    if (request.reason() != null) {
      params.setReason(
          switch (request.reason()) {
            case REQUESTED_BY_CUSTOMER -> RefundCreateParams.Reason.REQUESTED_BY_CUSTOMER;
            case DUPLICATE -> RefundCreateParams.Reason.DUPLICATE;
            case FRAUDULENT -> RefundCreateParams.Reason.FRAUDULENT;
          });
    }
    Refund refund;
    try {
      refund =
          client
              .v1()
              .refunds()
              .create(params.build(), IdempotentRequests.idempotent(request.idempotencyKey()));
    } catch (StripeException e) {
      throw StripeErrors.translate(e, "refund " + request.idempotencyKey());
    }
    log.debug(
        "Stripe refund {}: {} {}", request.idempotencyKey(), refund.getId(), refund.getStatus());
    boolean pending =
        switch (String.valueOf(refund.getStatus())) {
          case "succeeded" -> false;
          case "failed", "canceled" ->
              throw new InvalidGatewayRequestException(
                  REFUND_FAILED,
                  "Stripe refund "
                      + refund.getId()
                      + " for "
                      + request.idempotencyKey()
                      + " is "
                      + refund.getStatus()
                      + (refund.getFailureReason() == null
                          ? ""
                          : " (" + refund.getFailureReason() + ")"));
          case "pending", "requires_action" -> true;
          default -> {
            // Not final until Stripe says so: recording an unknown state as done could lose a
            // refund.
            log.warn(
                "Stripe refund {} for {} has status {}: taken as pending",
                refund.getId(),
                request.idempotencyKey(),
                refund.getStatus());
            yield true;
          }
        };
    return new GatewayRefund(
        refund.getId(),
        StripeAmounts.fromStripe(refund.getAmount(), refund.getCurrency()),
        Instant.ofEpochSecond(refund.getCreated()),
        pending);
  }
}
