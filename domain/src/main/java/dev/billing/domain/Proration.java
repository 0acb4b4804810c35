package dev.billing.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;

/**
 * Day-granularity proration over a billing period {@code [start, end)} (calendar dates in the
 * subscription's zone). Pure functions: safe in workflow code.
 *
 * <p>Rounding: the share of an amount is computed exactly and rounded to the currency's minor unit,
 * half up on its absolute value, so an upgrade and the downgrade straight back are the same amount
 * with opposite signs; a refund of unused days is rounded down, so it never exceeds the unused
 * share.
 */
public final class Proration {
  private Proration() {}

  /** Days of {@code [from, end)}; zero when {@code from} is on or after {@code end}. */
  public static long daysLeft(LocalDate from, LocalDate end) {
    return Math.max(0, ChronoUnit.DAYS.between(from, end));
  }

  /** {@code amount * days / periodDays}, half up on the absolute value. */
  public static Money share(Money amount, long days, long periodDays) {
    return share(amount, days, periodDays, RoundingMode.HALF_UP);
  }

  /** {@code amount * days / periodDays}, rounded down (towards zero). */
  public static Money shareRoundedDown(Money amount, long days, long periodDays) {
    return share(amount, days, periodDays, RoundingMode.DOWN);
  }

  /**
   * {@code amount * numerator / denominator} rounded as asked on the absolute value: a share that
   * may span more than one period (days a billing-day move added).
   */
  public static Money fraction(
      Money amount, BigInteger numerator, BigInteger denominator, RoundingMode rounding) {
    if (denominator.signum() <= 0 || numerator.signum() < 0) {
      throw new IllegalArgumentException("not a share: " + numerator + "/" + denominator);
    }
    BigDecimal minor =
        new BigDecimal(BigInteger.valueOf(Math.abs(amount.minor())).multiply(numerator))
            .divide(new BigDecimal(denominator), 0, rounding);
    long signed = amount.minor() < 0 ? -minor.longValueExact() : minor.longValueExact();
    return new Money(signed, amount.currency());
  }

  private static Money share(Money amount, long days, long periodDays, RoundingMode rounding) {
    if (periodDays <= 0) {
      throw new IllegalArgumentException("a period has at least one day");
    }
    if (days < 0 || days > periodDays) {
      throw new IllegalArgumentException(
          "days must be within the period: " + days + " of " + periodDays);
    }
    BigDecimal minor =
        BigDecimal.valueOf(Math.abs(amount.minor()))
            .multiply(BigDecimal.valueOf(days))
            .divide(BigDecimal.valueOf(periodDays), 0, rounding);
    long signed = amount.minor() < 0 ? -minor.longValueExact() : minor.longValueExact();
    return new Money(signed, amount.currency());
  }
}
