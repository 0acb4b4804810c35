package dev.billing.api.subscriptions;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the API accepts as a payment method: a gateway token, never card data. The display mask comes
 * from a small catalog of the sandbox's test tokens.
 *
 * <p>The activities module has its own sandbox catalog; the API keeps this tiny copy rather than
 * depending on activity code. Issue 4 (real gateway) replaces it by asking the gateway for the mask.
 */
public final class PaymentMethods {
  private PaymentMethods() {}

  public static final Pattern TOKEN = Pattern.compile("pm_[A-Za-z0-9_]{1,100}");

  /** 12 to 19 digits, optionally grouped by spaces or dashes: the shape of a primary account number. */
  private static final Pattern CARD_NUMBER = Pattern.compile("\\d(?:[ -]?\\d){11,18}");

  // The sandbox gateway's test tokens (Stripe test mode names); any other token shows as "Card".
  private static final Map<String, String> MASKS = Map.of(
      "pm_card_visa", "Visa •••• 4242",
      "pm_card_mastercard", "Mastercard •••• 4444",
      "pm_card_chargeDeclined", "Visa •••• 0002",
      "pm_card_chargeDeclinedInsufficientFunds", "Visa •••• 9995",
      "pm_card_chargeDeclinedExpiredCard", "Visa •••• 0069");

  static final String DEFAULT_MASK = "Card";

  public static boolean looksLikeCardNumber(String value) {
    return CARD_NUMBER.matcher(value.strip()).matches();
  }

  public static boolean isToken(String value) {
    return TOKEN.matcher(value).matches();
  }

  public static String maskOf(String token) {
    return MASKS.getOrDefault(token, DEFAULT_MASK);
  }
}
