package dev.billing.activities.payments.stripe;

import dev.billing.domain.Money;
import java.time.Instant;

/**
 * Response bodies in the shapes of Stripe's API reference (PaymentIntent, Refund, Charge, Dispute,
 * Event, list envelopes, error objects), trimmed of fields nothing here reads only where Stripe
 * marks them nullable.
 */
final class StripeJson {
  private StripeJson() {}

  static final String CUSTOMER = "cus_RbTestCustomer01";
  static final String PAYMENT_METHOD = "pm_1QxTestCardVisa4242";
  static final String TOKEN = CUSTOMER + "/" + PAYMENT_METHOD;
  static final String KEY = "charge:sub-1:3:1";
  static final String INTENT = "pi_3QxTestIntent01";
  static final long CREATED = 1770181200L; // 2026-02-04T05:00:00Z
  static final Instant CREATED_AT = Instant.ofEpochSecond(CREATED);
  static final Money PRICE = new Money(999, "USD");
  static final String OURS =
      "{\"cycle\": \"3\", \"idempotencyKey\": \"" + KEY + "\", \"subscriptionId\": \"sub-1\"}";

  /** Our PaymentIntent {@link #INTENT} with key {@link #KEY}. */
  static String intent(String status) {
    return paymentIntent(INTENT, status, 999, CREATED, KEY, null, null);
  }

  /** Our PaymentIntent after the issuer declined its confirmation. */
  static String declinedIntent(String declineCode) {
    String error =
        """
        {"charge": "ch_3QxTestDeclined01", "code": "card_declined", "decline_code": "%s",
         "doc_url": "https://stripe.com/docs/error-codes/card-declined",
         "message": "Your card was declined.", "type": "card_error"}
        """
            .formatted(declineCode);
    return paymentIntent(
        INTENT, "requires_payment_method", 999, CREATED, KEY, error, "\"ch_3QxTestDeclined01\"");
  }

  /** A PaymentIntent of ours: metadata {subscriptionId, cycle, idempotencyKey}. */
  static String paymentIntent(
      String id,
      String status,
      long amount,
      long created,
      String key,
      String lastPaymentError,
      String latestCharge) {
    return """
        {
          "id": "%1$s",
          "object": "payment_intent",
          "amount": %3$d,
          "amount_capturable": 0,
          "amount_details": {"tip": {}},
          "amount_received": %4$d,
          "application": null,
          "application_fee_amount": null,
          "automatic_payment_methods": {"allow_redirects": "never", "enabled": true},
          "canceled_at": null,
          "cancellation_reason": null,
          "capture_method": "automatic_async",
          "client_secret": "%1$s_secret_Zx9TestSecret",
          "confirmation_method": "automatic",
          "created": %5$d,
          "currency": "usd",
          "customer": "%6$s",
          "description": "pro-monthly, cycle 3",
          "last_payment_error": %8$s,
          "latest_charge": %9$s,
          "livemode": false,
          "metadata": {"cycle": "3", "idempotencyKey": "%7$s", "subscriptionId": "sub-1"},
          "next_action": null,
          "on_behalf_of": null,
          "payment_method": "%10$s",
          "payment_method_configuration_details": null,
          "payment_method_options": {"card": {"installments": null, "mandate_options": null,
              "network": null, "request_three_d_secure": "automatic"}},
          "payment_method_types": ["card"],
          "processing": null,
          "receipt_email": null,
          "review": null,
          "setup_future_usage": null,
          "shipping": null,
          "source": null,
          "statement_descriptor": null,
          "statement_descriptor_suffix": null,
          "status": "%2$s",
          "transfer_data": null,
          "transfer_group": null
        }
        """
        .formatted(
            id,
            status,
            amount,
            "succeeded".equals(status) ? amount : 0,
            created,
            CUSTOMER,
            key,
            lastPaymentError == null ? "null" : lastPaymentError,
            latestCharge == null ? "null" : latestCharge,
            PAYMENT_METHOD);
  }

  /** A card Charge, as expanded into latest_charge or carried by charge.* events. */
  static String charge(
      String id,
      String intent,
      long amount,
      long refunded,
      boolean disputed,
      long created,
      String metadata) {
    return charge(id, intent, amount, refunded, disputed, created, metadata, "card");
  }

  /**
   * @param methodType "card", or "us_bank_account" for an ACH debit
   */
  static String charge(
      String id,
      String intent,
      long amount,
      long refunded,
      boolean disputed,
      long created,
      String metadata,
      String methodType) {
    return chargeWithIntent(
        id, "\"" + intent + "\"", amount, refunded, disputed, created, metadata, methodType);
  }

  /**
   * @param intentJson the payment_intent field: a quoted id, or the PaymentIntent itself when the
   *     request expanded it
   */
  static String chargeWithIntent(
      String id,
      String intentJson,
      long amount,
      long refunded,
      boolean disputed,
      long created,
      String metadata,
      String methodType) {
    String details =
        "us_bank_account".equals(methodType)
            ? """
          {"type": "us_bank_account", "us_bank_account": {"account_holder_type": "individual",
              "account_type": "checking", "bank_name": "STRIPE TEST BANK",
              "fingerprint": "Fx9TestFingerprint", "last4": "6789", "routing_number": "110000000"}}
          """
            : "{\"type\": \"" + methodType + "\"}";
    return """
        {
          "id": "%1$s",
          "object": "charge",
          "amount": %3$d,
          "amount_captured": %3$d,
          "amount_refunded": %4$d,
          "balance_transaction": "txn_3QxTestBalance01",
          "billing_details": {"address": null, "email": null, "name": null, "phone": null},
          "captured": true,
          "created": %6$d,
          "currency": "usd",
          "customer": "%8$s",
          "description": "pro-monthly, cycle 3",
          "disputed": %5$s,
          "failure_code": null,
          "failure_message": null,
          "livemode": false,
          "metadata": %7$s,
          "outcome": {"network_status": "approved_by_network", "reason": null,
              "risk_level": "normal", "seller_message": "Payment complete.", "type": "authorized"},
          "paid": true,
          "payment_intent": %2$s,
          "payment_method": "%9$s",
          "payment_method_details": %11$s,
          "refunded": %10$s,
          "status": "succeeded"
        }
        """
        .formatted(
            id,
            intentJson,
            amount,
            refunded,
            disputed,
            created,
            metadata,
            CUSTOMER,
            PAYMENT_METHOD,
            refunded == amount,
            details);
  }

  /**
   * A Charge with its refunds embedded, as a request expanding {@code refunds} (or an event of an
   * API version before 2022-11-15) has it.
   *
   * @param hasMore whether Stripe has more than this page of them
   */
  static String withRefunds(String charge, boolean hasMore, String... refunds) {
    String marker = "\"status\": \"succeeded\"";
    return charge.replace(
        marker,
        "\"refunds\": "
            + list("/v1/charges/ch_3QxTestCharge01/refunds", hasMore, refunds).strip()
            + ",\n  "
            + marker);
  }

  /** A refund made in Stripe's dashboard: no metadata of ours. */
  static String dashboardRefund(String id, String intent, long amount, long created) {
    return refund(id, intent, amount, created, "-", "succeeded", null)
        .replace("\"metadata\": {\"idempotencyKey\": \"-\"}", "\"metadata\": {}");
  }

  /**
   * @param failureReason only for a failed refund; null leaves the field out, as Stripe does
   */
  static String refund(
      String id,
      String intent,
      long amount,
      long created,
      String key,
      String status,
      String failureReason) {
    return """
        {
          "id": "%1$s",
          "object": "refund",
          "amount": %3$d,
          "balance_transaction": "txn_3QxTestRefund01",
          "charge": "ch_3QxTestCharge01",
          "created": %4$d,
          "currency": "usd",
          "destination_details": {"card": {"reference_status": "pending",
              "reference_type": "acquirer_reference_number", "type": "refund"}, "type": "card"},%7$s
          "metadata": {"idempotencyKey": "%5$s"},
          "payment_intent": "%2$s",
          "reason": "requested_by_customer",
          "receipt_number": null,
          "source_transfer_reversal": null,
          "status": "%6$s",
          "transfer_reversal": null
        }
        """
        .formatted(
            id,
            intent,
            amount,
            created,
            key,
            status,
            failureReason == null ? "" : "\n  \"failure_reason\": \"" + failureReason + "\",");
  }

  /**
   * A dispute of an ACH debit, how Stripe reports a returned bank debit: its own
   * payment_method_details only ever describe card-like methods, so it has none; its Charge tells.
   */
  static String dispute(
      String id, String charge, String intent, long amount, long created, String reason) {
    return dispute(id, charge, intent, amount, created, reason, null);
  }

  /** A card dispute (a chargeback) with the network's reason code, lost. */
  static String cardDispute(
      String id, String charge, String intent, long amount, long created, String reason) {
    return cardDispute(id, charge, intent, amount, created, reason, "lost");
  }

  /**
   * @param status needs_response, under_review, won, lost, warning_closed, ...
   */
  static String cardDispute(
      String id,
      String charge,
      String intent,
      long amount,
      long created,
      String reason,
      String status) {
    return dispute(
            id,
            charge,
            intent,
            amount,
            created,
            reason,
            """
        {"type": "card", "card": {"brand": "visa", "network_reason_code": "10.4"}}""")
        .replace("\"status\": \"lost\"", "\"status\": \"" + status + "\"");
  }

  private static String dispute(
      String id,
      String charge,
      String intent,
      long amount,
      long created,
      String reason,
      String methodDetails) {
    return """
        {
          "id": "%1$s",
          "object": "dispute",
          "amount": %4$d,
          "balance_transactions": [],
          "charge": "%2$s",
          "created": %5$d,
          "currency": "usd",
          "evidence": {"customer_name": null, "product_description": null, "receipt": null,
              "uncategorized_text": null},
          "evidence_details": {"due_by": null, "has_evidence": false, "past_due": false,
              "submission_count": 0},
          "is_charge_refundable": false,
          "livemode": false,
          "metadata": {},
          "payment_intent": "%3$s",%7$s
          "reason": "%6$s",
          "status": "lost"
        }
        """
        .formatted(
            id,
            charge,
            intent,
            amount,
            created,
            reason,
            methodDetails == null ? "" : "\n  \"payment_method_details\": " + methodDetails + ",");
  }

  static String event(String id, String type, long created, String apiVersion, String object) {
    return """
        {
          "id": "%1$s",
          "object": "event",
          "api_version": "%4$s",
          "created": %3$d,
          "data": {"object": %5$s},
          "livemode": false,
          "pending_webhooks": 0,
          "request": {"id": null, "idempotency_key": null},
          "type": "%2$s"
        }
        """
        .formatted(id, type, created, apiVersion, object);
  }

  static String list(String url, boolean hasMore, String... items) {
    return """
        {"object": "list", "data": [%s], "has_more": %s, "url": "%s"}
        """
        .formatted(String.join(",", items), hasMore, url);
  }

  /**
   * The 402 Stripe answers an off-session confirmation the issuer declines. Codes Stripe has no
   * value for are left out, as Stripe does (the description has them as non-null strings).
   */
  static String cardError(
      String code, String declineCode, String adviceCode, String message, String intent) {
    return """
        {
          "error": {%s%s
            "charge": "ch_3QxTestDeclined01",
            "code": "%s",
            "doc_url": "https://stripe.com/docs/error-codes/%s",
            "message": "%s",
            "payment_intent": %s,
            "request_log_url": "https://dashboard.stripe.com/test/logs/req_TestDecline01?t=1770181200",
            "type": "card_error"
          }
        }
        """
        .formatted(
            field("advice_code", adviceCode),
            field("decline_code", declineCode),
            code,
            code.replace('_', '-'),
            message,
            intent);
  }

  private static String field(String name, String value) {
    return value == null ? "" : "\n    \"" + name + "\": \"" + value + "\",";
  }

  static String apiError(String message) {
    return """
        {"error": {"message": "%s", "type": "api_error"}}
        """
        .formatted(message);
  }

  static String invalidRequest(String code, String param, String message) {
    return """
        {"error": {"code": "%s", "doc_url": "https://stripe.com/docs/error-codes/%s",
          "message": "%s", "param": "%s", "type": "invalid_request_error"}}
        """
        .formatted(code, code.replace('_', '-'), message, param);
  }
}
