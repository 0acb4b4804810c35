package dev.billing.activities.payments.stripe;

import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.domain.Money;
import java.util.Locale;
import java.util.Map;

/**
 * Converts between {@link Money} (minor units with the JDK's ISO 4217 digits) and Stripe's amounts
 * ("the smallest currency unit" as Stripe counts it). Both agree on two decimals for most
 * currencies; {@link #STRIPE_EXPONENTS} lists every currency where Stripe's docs (Supported
 * currencies: zero-decimal, three-decimal, special cases) say otherwise or single it out, and the
 * conversion scales by the difference between Stripe's exponent and the ISO one.
 */
public final class StripeAmounts {
  private StripeAmounts() {}

  /** Stripe's decimal digits where they are not simply two; any other currency has two. */
  static final Map<String, Integer> STRIPE_EXPONENTS =
      Map.ofEntries(
          // Zero-decimal at Stripe. All have zero digits in ISO 4217 too, except MGA (ISO: 2).
          Map.entry("BIF", 0),
          Map.entry("CLP", 0),
          Map.entry("DJF", 0),
          Map.entry("GNF", 0),
          Map.entry("JPY", 0),
          Map.entry("KMF", 0),
          Map.entry("KRW", 0),
          Map.entry("MGA", 0),
          Map.entry("PYG", 0),
          Map.entry("RWF", 0),
          Map.entry("VND", 0),
          Map.entry("VUV", 0),
          Map.entry("XAF", 0),
          Map.entry("XOF", 0),
          Map.entry("XPF", 0),
          // Special cases: whole units only, but still sent with two decimals for backwards
          // compatibility (ISO 4217: 0), so the amount is a multiple of 100.
          Map.entry("ISK", 2),
          Map.entry("UGX", 2),
          // Special cases for payouts only (whole units); charges use two decimals, as ISO does.
          Map.entry("HUF", 2),
          Map.entry("TWD", 2),
          // Three-decimal, as in ISO; Stripe requires the last digit to be 0 and refuses others.
          Map.entry("BHD", 3),
          Map.entry("JOD", 3),
          Map.entry("KWD", 3),
          Map.entry("OMR", 3),
          Map.entry("TND", 3));

  static int stripeExponent(String currency) {
    return STRIPE_EXPONENTS.getOrDefault(currency.toUpperCase(Locale.ROOT), 2);
  }

  /**
   * @throws InvalidGatewayRequestException when the amount has more decimals than Stripe takes for
   *     its currency (a fraction of an ariary): no retry fixes it
   */
  public static long toStripe(Money money) {
    int shift = stripeExponent(money.currency()) - Money.fractionDigits(money.currency());
    if (shift >= 0) {
      return Math.multiplyExact(money.minor(), pow10(shift));
    }
    long divisor = pow10(-shift);
    if (money.minor() % divisor != 0) {
      throw new InvalidGatewayRequestException(
          "amount_precision",
          money.toPlainString()
              + " "
              + money.currency()
              + " has more decimals than Stripe takes for "
              + money.currency()
              + " ("
              + stripeExponent(money.currency())
              + ")");
    }
    return money.minor() / divisor;
  }

  /**
   * From Stripe's amount and lowercase currency. An amount finer than ISO's digits (an ISK charge
   * in fractional krónur, which Stripe no longer accepts) is rounded toward zero.
   */
  public static Money fromStripe(long amount, String stripeCurrency) {
    String currency = stripeCurrency.toUpperCase(Locale.ROOT);
    int shift = stripeExponent(currency) - Money.fractionDigits(currency);
    return shift >= 0
        ? new Money(amount / pow10(shift), currency)
        : new Money(Math.multiplyExact(amount, pow10(-shift)), currency);
  }

  /** Stripe's spelling of a currency: lowercase ISO code. */
  public static String currency(Money money) {
    return money.currency().toLowerCase(Locale.ROOT);
  }

  private static long pow10(int exponent) {
    long result = 1;
    for (int i = 0; i < exponent; i++) {
      result *= 10;
    }
    return result;
  }
}
