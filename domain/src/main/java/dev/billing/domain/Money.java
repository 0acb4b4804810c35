package dev.billing.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.Objects;

/**
 * An amount of money in the currency's minor units (cents for USD, yen for JPY, fils for BHD).
 * Never a double: decimal strings are parsed exactly and rejected when they carry more decimals
 * than the currency has.
 */
public record Money(long minor, String currency) {

  /**
   * Upper bound on one charge, in major units: far above any real subscription, far below overflow.
   */
  public static final BigDecimal MAX_MAJOR = new BigDecimal("1000000000");

  private static final java.util.regex.Pattern PLAIN_DECIMAL =
      java.util.regex.Pattern.compile("-?[0-9]{1,12}(\\.[0-9]{1,12})?");

  public Money {
    Objects.requireNonNull(currency, "currency");
    fractionDigits(currency);
  }

  /**
   * Parses a decimal string such as "9.99"; throws IllegalArgumentException naming what is wrong.
   */
  public static Money parse(String decimal, String currency) {
    if (decimal == null || decimal.isBlank()) {
      throw new IllegalArgumentException("amount is required");
    }
    String text = decimal.trim();
    // Plain digits and an optional minus only: no exponent, plus sign or grouping ("1e2", "+5").
    // Negative values parse (refund differences, adjustments); callers decide what sign they
    // accept.
    if (!PLAIN_DECIMAL.matcher(text).matches()) {
      throw new IllegalArgumentException("amount must be a decimal number such as \"9.99\"");
    }
    return of(new BigDecimal(text), currency);
  }

  public static Money of(BigDecimal value, String currency) {
    int digits = fractionDigits(currency);
    if (value.abs().compareTo(MAX_MAJOR) > 0) {
      throw new IllegalArgumentException("amount must not exceed " + MAX_MAJOR.toPlainString());
    }
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() > digits) {
      throw new IllegalArgumentException(
          "amount has more decimals than " + currency + " allows (" + digits + ")");
    }
    return new Money(
        value.setScale(digits, RoundingMode.UNNECESSARY).unscaledValue().longValueExact(),
        currency);
  }

  public static Money zero(String currency) {
    return new Money(0, currency);
  }

  /**
   * The ISO 4217 minor-unit digits; throws for unknown codes and for ones without minor units
   * (XAU).
   */
  public static int fractionDigits(String currency) {
    Currency c;
    try {
      c = Currency.getInstance(currency);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("currency must be an ISO 4217 code such as \"USD\"");
    }
    int digits = c.getDefaultFractionDigits();
    if (digits < 0) {
      throw new IllegalArgumentException(
          "currency " + currency + " has no minor unit and cannot be billed");
    }
    return digits;
  }

  public BigDecimal toDecimal() {
    return BigDecimal.valueOf(minor, fractionDigits(currency));
  }

  /** "9.99", the decimal string the API and DynamoDB use. */
  public String toPlainString() {
    return toDecimal().toPlainString();
  }

  public boolean greaterThanZero() {
    return minor > 0;
  }

  public Money plus(Money other) {
    requireSameCurrency(other);
    return new Money(Math.addExact(minor, other.minor), currency);
  }

  public Money minus(Money other) {
    requireSameCurrency(other);
    return new Money(Math.subtractExact(minor, other.minor), currency);
  }

  private void requireSameCurrency(Money other) {
    if (!currency.equals(other.currency)) {
      throw new IllegalArgumentException(
          "currency mismatch: " + currency + " and " + other.currency);
    }
  }

  @Override
  public String toString() {
    return toPlainString() + " " + currency;
  }
}
