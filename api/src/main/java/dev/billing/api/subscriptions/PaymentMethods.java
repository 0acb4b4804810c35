package dev.billing.api.subscriptions;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the API accepts as a payment method: a gateway token, never card data. The display mask
 * comes from a small catalog of the sandbox's test tokens.
 *
 * <p>The activities module has the sandbox's full catalog; the API keeps this copy of its masks
 * rather than carrying gateway code. A real gateway's mask (Stripe's card brand and last four) is
 * not looked up yet: such tokens show as "Card".
 */
public final class PaymentMethods {
  private PaymentMethods() {}

  /** A gateway token: "pm_…", or Stripe's "cus_…/pm_…" (off-session charges need the customer). */
  public static final Pattern TOKEN =
      Pattern.compile("(cus_[A-Za-z0-9]{1,64}/)?pm_[A-Za-z0-9_]{1,100}");

  /**
   * 12 to 19 digits, optionally grouped by spaces or dashes: the shape of a primary account number.
   * Not a second card detector: a body with a real card number never gets here (StrictJsonBodies
   * refuses it through SensitiveNumbers); this only words the error for digits that do, such as a
   * mistyped number failing the Luhn check.
   */
  private static final Pattern CARD_NUMBER = Pattern.compile("\\d(?:[ -]?\\d){11,18}");

  // The sandbox gateway's test tokens (Stripe test mode names); any other token shows as "Card".
  private static final Map<String, String> MASKS =
      Map.of(
          "pm_card_visa", "Visa •••• 4242",
          "pm_card_mastercard", "Mastercard •••• 4444",
          "pm_card_chargeDeclined", "Visa •••• 0002",
          "pm_card_chargeDeclinedInsufficientFunds", "Visa •••• 9995",
          "pm_card_chargeDeclinedExpiredCard", "Visa •••• 0069",
          "pm_sandbox_timeoutAfterCharge", "Visa •••• 5556",
          "pm_sandbox_bankDebit", "Bank account •••• 6789",
          "pm_sandbox_bankDebitReturned", "Bank account •••• 2227");
  // Sandbox tokens that take a number, e.g. pm_sandbox_recoversAfter_2.
  private static final Map<String, String> MASKS_BY_PREFIX =
      Map.of(
          "pm_sandbox_recoversAfter_", "Visa •••• 1881",
          "pm_sandbox_transientErrors_", "Mastercard •••• 8210");

  static final String DEFAULT_MASK = "Card";

  public static boolean looksLikeCardNumber(String value) {
    return CARD_NUMBER.matcher(value.strip()).matches();
  }

  public static boolean isToken(String value) {
    return TOKEN.matcher(value).matches();
  }

  public static String maskOf(String token) {
    String exact = MASKS.get(token);
    if (exact != null) {
      return exact;
    }
    return MASKS_BY_PREFIX.entrySet().stream()
        .filter(entry -> token.startsWith(entry.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(DEFAULT_MASK);
  }

  /**
   * Why {@code token} (already stripped) is not an acceptable token for {@code field}; null when it
   * is.
   */
  public static String problem(String field, String token) {
    if (looksLikeCardNumber(token)) {
      return field
          + " must be a payment method token such as \"pm_card_visa\", never a card number";
    }
    if (!isToken(token)) {
      return field + " must be a payment method token such as \"pm_card_visa\"";
    }
    return null;
  }
}
