package dev.billing.domain;

import java.util.Map;

/**
 * The smallest amount a card gateway accepts for one charge, per currency (Stripe's published
 * minimums; other currencies need at least the equivalent of 0.50 USD, which a static table cannot
 * know, so for them any positive amount is tried). An amount below the minimum is never sent: the
 * gateway refuses it as invalid, and that refusal must not be mistaken for the customer's decline.
 */
public final class ChargeMinimums {
  private ChargeMinimums() {}

  private static final Map<String, String> MINIMUMS =
      Map.ofEntries(
          Map.entry("USD", "0.50"),
          Map.entry("AED", "2.00"),
          Map.entry("AUD", "0.50"),
          Map.entry("BGN", "1.00"),
          Map.entry("BRL", "0.50"),
          Map.entry("CAD", "0.50"),
          Map.entry("CHF", "0.50"),
          Map.entry("CZK", "15.00"),
          Map.entry("DKK", "2.50"),
          Map.entry("EUR", "0.50"),
          Map.entry("GBP", "0.30"),
          Map.entry("HKD", "4.00"),
          Map.entry("HUF", "175.00"),
          Map.entry("INR", "0.50"),
          Map.entry("JPY", "50"),
          Map.entry("MXN", "10"),
          Map.entry("MYR", "2"),
          Map.entry("NOK", "3.00"),
          Map.entry("NZD", "0.50"),
          Map.entry("PLN", "2.00"),
          Map.entry("RON", "2.00"),
          Map.entry("SEK", "3.00"),
          Map.entry("SGD", "0.50"),
          Map.entry("THB", "10"));

  /** The minimum charge in {@code currency}: one minor unit where the table has none. */
  public static Money minimum(String currency) {
    String decimal = MINIMUMS.get(currency);
    return decimal == null ? new Money(1, currency) : Money.parse(decimal, currency);
  }

  /** Whether the gateway accepts a charge of {@code amount}. */
  public static boolean chargeable(Money amount) {
    return amount.minor() >= minimum(amount.currency()).minor();
  }
}
