package dev.billing.activities.payments.stripe;

import dev.billing.domain.Money;
import java.util.Locale;
import java.util.Set;

/**
 * Converts between {@link Money} (ISO 4217 minor units) and Stripe's amounts ("the smallest currency
 * unit"). They agree for every currency except the few Stripe keeps in two-decimal form for
 * backwards compatibility although ISO gives them none (ISK, UGX): there Stripe's amount is ours
 * times 100. Three-decimal currencies (BHD, KWD, ...) are sent as they are; Stripe requires their
 * last digit to be 0 and rejects the charge otherwise.
 */
public final class StripeAmounts {
  private StripeAmounts() {}

  private static final Set<String> TWO_DECIMAL_FOR_COMPATIBILITY = Set.of("ISK", "UGX");

  public static long toStripe(Money money) {
    return TWO_DECIMAL_FOR_COMPATIBILITY.contains(money.currency())
        ? Math.multiplyExact(money.minor(), 100)
        : money.minor();
  }

  /** From Stripe's amount and lowercase currency. */
  public static Money fromStripe(long amount, String stripeCurrency) {
    String currency = stripeCurrency.toUpperCase(Locale.ROOT);
    return TWO_DECIMAL_FOR_COMPATIBILITY.contains(currency)
        ? new Money(amount / 100, currency)
        : new Money(amount, currency);
  }

  /** Stripe's spelling of a currency: lowercase ISO code. */
  public static String currency(Money money) {
    return money.currency().toLowerCase(Locale.ROOT);
  }
}
