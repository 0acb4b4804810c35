package dev.billing.activities.payments.stripe;

/**
 * Response bodies in the shapes of Stripe's API reference (PaymentIntent, Refund, Charge, Dispute,
 * Event, list and search_result envelopes, error objects), trimmed of fields nothing here reads
 * only where Stripe marks them nullable.
 */
final class StripeJson {
  private StripeJson() {}

  static final String CUSTOMER = "cus_RbTestCustomer01";
  static final String PAYMENT_METHOD = "pm_1QxTestCardVisa4242";
  static final String TOKEN = CUSTOMER + "/" + PAYMENT_METHOD;

  /** A PaymentIntent of ours: metadata {subscriptionId, cycle, idempotencyKey}. */
  static String paymentIntent(String id, String status, long amount, long created, String key,
      String lastPaymentError, String latestCharge) {
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
        """.formatted(id, status, amount, "succeeded".equals(status) ? amount : 0, created,
        CUSTOMER, key, lastPaymentError == null ? "null" : lastPaymentError,
        latestCharge == null ? "null" : latestCharge, PAYMENT_METHOD);
  }

  /** A Charge as expanded into latest_charge or carried by charge.* events. */
  /** A card charge. */
  static String charge(String id, String intent, long amount, long refunded, boolean disputed,
      long created, String metadata) {
    return charge(id, intent, amount, refunded, disputed, created, metadata, "card");
  }

  /** @param methodType "card", or "us_bank_account" for an ACH debit */
  static String charge(String id, String intent, long amount, long refunded, boolean disputed,
      long created, String metadata, String methodType) {
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
          "payment_intent": "%2$s",
          "payment_method": "%9$s",
          "payment_method_details": {"type": "%11$s"},
          "refunded": %10$s,
          "status": "succeeded"
        }
        """.formatted(id, intent, amount, refunded, disputed, created, metadata, CUSTOMER,
        PAYMENT_METHOD, refunded == amount, methodType);
  }

  static String refund(String id, String intent, long amount, long created, String key) {
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
              "reference_type": "acquirer_reference_number", "type": "refund"}, "type": "card"},
          "metadata": {"idempotencyKey": "%5$s"},
          "payment_intent": "%2$s",
          "reason": "requested_by_customer",
          "receipt_number": null,
          "source_transfer_reversal": null,
          "status": "succeeded",
          "transfer_reversal": null
        }
        """.formatted(id, intent, amount, created, key);
  }

  /** A dispute of an ACH debit: how Stripe reports a returned bank debit. */
  static String dispute(String id, String charge, String intent, long amount, long created,
      String reason) {
    return dispute(id, charge, intent, amount, created, reason, "us_bank_account");
  }

  static String dispute(String id, String charge, String intent, long amount, long created,
      String reason, String methodType) {
    return """
        {
          "id": "%1$s",
          "object": "dispute",
          "amount": %4$d,
          "balance_transactions": [],
          "charge": "%2$s",
          "created": %5$d,
          "currency": "usd",
          "evidence_details": {"due_by": null, "has_evidence": false, "past_due": false,
              "submission_count": 0},
          "is_charge_refundable": false,
          "livemode": false,
          "metadata": {},
          "payment_intent": "%3$s",
          "payment_method_details": {"type": "%7$s"},
          "reason": "%6$s",
          "status": "lost"
        }
        """.formatted(id, charge, intent, amount, created, reason, methodType);
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
        """.formatted(id, type, created, apiVersion, object);
  }

  static String list(String url, boolean hasMore, String... items) {
    return """
        {"object": "list", "data": [%s], "has_more": %s, "url": "%s"}
        """.formatted(String.join(",", items), hasMore, url);
  }

  static String searchResult(String... items) {
    return """
        {"object": "search_result", "data": [%s], "has_more": false, "next_page": null,
         "url": "/v1/payment_intents/search"}
        """.formatted(String.join(",", items));
  }

  /** The 402 Stripe answers an off-session confirmation the issuer declines. */
  static String cardError(String code, String declineCode, String adviceCode, String message,
      String intent) {
    return """
        {
          "error": {
            "advice_code": %s,
            "charge": "ch_3QxTestDeclined01",
            "code": "%s",
            "decline_code": %s,
            "doc_url": "https://stripe.com/docs/error-codes/%s",
            "message": "%s",
            "payment_intent": %s,
            "request_log_url": "https://dashboard.stripe.com/test/logs/req_TestDecline01?t=1770181200",
            "type": "card_error"
          }
        }
        """.formatted(quoted(adviceCode), code, quoted(declineCode), code.replace('_', '-'),
        message, intent);
  }

  static String apiError(String message) {
    return """
        {"error": {"message": "%s", "type": "api_error"}}
        """.formatted(message);
  }

  static String invalidRequest(String code, String param, String message) {
    return """
        {"error": {"code": "%s", "doc_url": "https://stripe.com/docs/error-codes/%s",
          "message": "%s", "param": "%s", "type": "invalid_request_error"}}
        """.formatted(code, code.replace('_', '-'), message, param);
  }

  private static String quoted(String value) {
    return value == null ? "null" : "\"" + value + "\"";
  }
}
