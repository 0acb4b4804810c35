package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The parameters of a request that Stripe compares when an idempotency key is reused: every one of
 * them, so any difference is a conflict. Names follow Stripe's API.
 */
final class RequestParameters {
  private RequestParameters() {}

  /**
   * @param customer the {@code cus_} part of a {@code cus_…/pm_…} token; null for a bare one
   * @param paymentMethod the token without its customer
   */
  record Charge(
      long amount,
      String currency,
      String customer,
      String paymentMethod,
      String description,
      Map<String, String> metadata) {

    static Charge of(GatewayChargeRequest request) {
      String token = request.paymentMethodToken();
      String customer = customerOf(token);
      return new Charge(
          request.amount().minor(),
          request.amount().currency(),
          customer,
          customer == null ? token : token.substring(customer.length() + 1),
          request.description(),
          request.metadata());
    }

    /** The names of the parameters in which {@code reused} differs from this first request. */
    List<String> differences(Charge reused) {
      List<String> names = new ArrayList<>();
      differ(names, "amount", amount, reused.amount);
      differ(names, "currency", currency, reused.currency);
      differ(names, "customer", customer, reused.customer);
      differ(names, "payment_method", paymentMethod, reused.paymentMethod);
      differ(names, "description", description, reused.description);
      differ(names, "metadata", metadata, reused.metadata);
      return names;
    }
  }

  /**
   * @param reason null when the request gave none
   */
  record Refund(String charge, long amount, String currency, RefundRequest.Reason reason) {

    static Refund of(RefundRequest request) {
      Money amount = request.amount();
      return new Refund(
          request.transactionId(), amount.minor(), amount.currency(), request.reason());
    }

    List<String> differences(Refund reused) {
      List<String> names = new ArrayList<>();
      differ(names, "charge", charge, reused.charge);
      differ(names, "amount", amount, reused.amount);
      differ(names, "currency", currency, reused.currency);
      differ(names, "reason", reason, reused.reason);
      return names;
    }
  }

  private static void differ(List<String> names, String name, Object first, Object reused) {
    if (!Objects.equals(first, reused)) {
      names.add(name);
    }
  }

  /** The {@code cus_} part of a {@code cus_…/pm_…} token; null for a bare one (or null) token. */
  static String customerOf(String token) {
    if (token == null) {
      return null;
    }
    int slash = token.indexOf('/');
    return slash > 0 && token.startsWith("cus_") ? token.substring(0, slash) : null;
  }
}
