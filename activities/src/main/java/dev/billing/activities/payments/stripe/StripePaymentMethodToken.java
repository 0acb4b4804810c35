package dev.billing.activities.payments.stripe;

import java.util.Objects;

/**
 * The payment method token stored with a subscription when Stripe is the gateway: {@code
 * cus_.../pm_...} (the Stripe customer the payment method is attached to, then the payment method),
 * or a bare {@code pm_...} for payment methods that need no customer (Stripe's test tokens such as
 * {@code pm_card_visa}). Off-session charges of a saved payment method need its customer. Never
 * logged; {@link #toString()} hides both ids.
 *
 * @param customer null for a bare payment method
 */
public record StripePaymentMethodToken(String customer, String paymentMethod) {

  public StripePaymentMethodToken {
    Objects.requireNonNull(paymentMethod, "paymentMethod");
  }

  /** Parses a stored token; throws IllegalArgumentException without echoing it. */
  public static StripePaymentMethodToken parse(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("empty Stripe payment method token");
    }
    int slash = token.indexOf('/');
    if (slash < 0) {
      return new StripePaymentMethodToken(null, token);
    }
    String customer = token.substring(0, slash);
    String method = token.substring(slash + 1);
    if (!customer.startsWith("cus_") || method.isEmpty() || method.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "a Stripe payment method token is \"cus_.../pm_...\" or \"pm_...\"");
    }
    return new StripePaymentMethodToken(customer, method);
  }

  /** The stored form. */
  public String token() {
    return customer == null ? paymentMethod : customer + "/" + paymentMethod;
  }

  @Override
  public String toString() {
    return "StripePaymentMethodToken[" + (customer == null ? "" : "cus_…/") + "pm_…]";
  }
}
