package dev.billing.activities.payments.stripe;

import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.ApiException;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.CardException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.PermissionException;
import com.stripe.exception.RateLimitException;
import com.stripe.exception.StripeException;
import com.stripe.model.StripeError;
import dev.billing.activities.payments.DeclineCodes;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGatewayException;

/**
 * Maps stripe-java's exceptions onto the port's.
 *
 * <table>
 *   <caption>Stripe errors</caption>
 *   <tr><th>Stripe</th><th>port</th></tr>
 *   <tr><td>CardException (402 card_error)</td><td>PaymentDeclinedException: code = decline_code
 *       when the issuer gave one ("insufficient_funds", "generic_decline", "lost_card"), else the
 *       error code ("card_declined", "expired_card", "incorrect_cvc"); kind by advice_code, then
 *       {@link DeclineCodes}</td></tr>
 *   <tr><td>ApiConnectionException (connect/read timeout, reset), RateLimitException (429),
 *       ApiException (5xx api_error), any 409 (a concurrent request with the same key, lock
 *       timeouts)</td><td>GatewayUnavailableException: retry with the same key</td></tr>
 *   <tr><td>AuthenticationException (401), PermissionException (403)</td><td>
 *       GatewayUnavailableException: a key problem an operator fixes without a code change, after
 *       which retries pass; failing the charge for it would turn an outage into declines</td></tr>
 *   <tr><td>InvalidRequestException resource_missing on payment_method</td><td>hard decline
 *       "invalid_payment_method" (the customer must give a new one), as the sandbox does</td></tr>
 *   <tr><td>IdempotencyException (400 idempotency_error, key reused with other parameters)</td>
 *       <td>IdempotencyConflictException: proof that a request with the key exists, its outcome
 *       unknown to this caller (never a refusal: the first request may have moved money)</td></tr>
 *   <tr><td>other InvalidRequestException (400, 404)</td><td>InvalidGatewayRequestException with
 *       Stripe's code</td></tr>
 * </table>
 *
 * Messages are Stripe's; {@code secrets} (payment method and customer ids) are blanked out of them,
 * because they end up in activity failures and logs.
 */
final class StripeErrors {
  private StripeErrors() {}

  static PaymentGatewayException translate(StripeException e, String what, String... secrets) {
    StripeError error = e.getStripeError();
    String message =
        redact(
            error != null && error.getMessage() != null ? error.getMessage() : e.getMessage(),
            secrets);
    Integer status = e.getStatusCode();
    if (e instanceof CardException card) {
      String declineCode = card.getDeclineCode();
      String code = card.getCode();
      String reason = declineCode != null ? declineCode : code != null ? code : "card_declined";
      DeclineKind kind =
          DeclineCodes.kindOf(error == null ? null : error.getAdviceCode(), declineCode, code);
      return new PaymentDeclinedException(
          reason, message == null ? "Your card was declined." : message, kind);
    }
    if (e instanceof ApiConnectionException
        || e instanceof RateLimitException
        || e instanceof ApiException
        || (status != null && (status >= 500 || status == 409 || status == 429))) {
      return new GatewayUnavailableException(
          "Stripe unavailable for " + what + ": " + describe(e, message), e);
    }
    if (e instanceof AuthenticationException || e instanceof PermissionException) {
      return new GatewayUnavailableException(
          "Stripe refused the API key for "
              + what
              + " (check "
              + StripeSettings.API_KEY_ENV
              + "): "
              + describe(e, message),
          e);
    }
    if (e instanceof IdempotencyException) {
      // A 400: the first request with the key ran (a 409 idempotency_error, a request with the
      // key still running, was answered above as unavailable).
      return new IdempotencyConflictException(
          "Stripe holds an earlier request with the key of "
              + what
              + " with other parameters: "
              + describe(e, message),
          e);
    }
    if (e instanceof InvalidRequestException invalid) {
      if ("resource_missing".equals(invalid.getCode())
          && "payment_method".equals(invalid.getParam())) {
        return new PaymentDeclinedException(
            "invalid_payment_method",
            "The payment method does not exist at Stripe.",
            DeclineKind.HARD);
      }
      return new InvalidGatewayRequestException(
          invalid.getCode() != null ? invalid.getCode() : "invalid_request",
          "Stripe rejected the request for " + what + ": " + message);
    }
    return new GatewayUnavailableException(
        "Stripe failed for " + what + ": " + describe(e, message), e);
  }

  private static String describe(StripeException e, String message) {
    String kind = e.getClass().getSimpleName();
    Integer status = e.getStatusCode();
    return kind
        + (status == null ? "" : " (HTTP " + status + ")")
        + (e.getRequestId() == null ? "" : " request " + e.getRequestId())
        + (message == null ? "" : ": " + message);
  }

  static String redact(String message, String... secrets) {
    if (message == null) {
      return null;
    }
    String out = message;
    for (String secret : secrets) {
      if (secret != null && !secret.isEmpty()) {
        out = out.replace(secret, "[redacted]");
      }
    }
    return out;
  }
}
