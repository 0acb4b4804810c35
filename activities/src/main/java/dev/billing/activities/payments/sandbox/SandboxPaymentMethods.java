package dev.billing.activities.payments.sandbox;

import dev.billing.domain.PaymentMethod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The payment methods the sandbox gateway knows. Tokens, masks and decline codes follow Stripe's
 * test mode, so a developer can move to Stripe's test keys without relearning the test data.
 */
public final class SandboxPaymentMethods {
  private SandboxPaymentMethods() {}

  public static final String VISA = "pm_card_visa";
  public static final String MASTERCARD = "pm_card_mastercard";
  public static final String CHARGE_DECLINED = "pm_card_chargeDeclined";
  public static final String INSUFFICIENT_FUNDS = "pm_card_chargeDeclinedInsufficientFunds";
  public static final String EXPIRED_CARD = "pm_card_chargeDeclinedExpiredCard";

  private static final Map<String, SandboxPaymentMethod> BY_TOKEN = catalog(
      new SandboxPaymentMethod(VISA, "Visa •••• 4242", null, null),
      new SandboxPaymentMethod(MASTERCARD, "Mastercard •••• 4444", null, null),
      new SandboxPaymentMethod(
          CHARGE_DECLINED, "Visa •••• 0002", "card_declined", "Your card was declined."),
      new SandboxPaymentMethod(INSUFFICIENT_FUNDS, "Visa •••• 9995", "insufficient_funds",
          "Your card has insufficient funds."),
      new SandboxPaymentMethod(
          EXPIRED_CARD, "Visa •••• 0069", "expired_card", "Your card has expired."));

  /** All of them, in a stable order (for a dev UI's picker). */
  public static List<SandboxPaymentMethod> all() {
    return List.copyOf(BY_TOKEN.values());
  }

  public static Optional<SandboxPaymentMethod> find(String token) {
    return Optional.ofNullable(BY_TOKEN.get(token));
  }

  /** The domain value for a known token; throws IllegalArgumentException naming an unknown one. */
  public static PaymentMethod paymentMethod(String token) {
    return find(token)
        .orElseThrow(() -> new IllegalArgumentException("unknown sandbox payment method: " + token))
        .paymentMethod();
  }

  private static Map<String, SandboxPaymentMethod> catalog(SandboxPaymentMethod... methods) {
    Map<String, SandboxPaymentMethod> byToken = new LinkedHashMap<>();
    for (SandboxPaymentMethod m : methods) {
      byToken.put(m.token(), m);
    }
    return java.util.Collections.unmodifiableMap(byToken);
  }
}
