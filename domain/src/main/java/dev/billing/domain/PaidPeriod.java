package dev.billing.domain;

import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;

/**
 * The dates of the paid period in service and what its days are worth, for proration and refunds.
 * Its own charge paid {@code [from, paidUntil)}; a billing-day move that put the next due date
 * later added {@code [paidUntil, until)}, charged with the next charge at {@code addedWorth /
 * addedPer} of a period's price ({@link MovedPeriod}). Without a move, {@code paidUntil == until}
 * and the period is the schedule's {@code [dueDate(cycle), dueDate(cycle + 1))}. Pure: safe in
 * workflow code.
 *
 * <p>A day is worth the same to every rule: an upgrade charges the difference for the days left at
 * the rate each part was priced at (the paid days as shares of the paid charge, the added days as
 * the move priced them); a refund of unused days gives back the unused paid days of the period's
 * own charge only, since the added days' charge was not collected yet (a cancellation leaves it).
 *
 * @param cycle the paid cycle in service
 */
public record PaidPeriod(
    long cycle,
    LocalDate from,
    LocalDate paidUntil,
    LocalDate until,
    long addedWorth,
    long addedPer) {

  /**
   * The period of cycle {@code nextCycle - 1} for a subscription on {@code nextCycle}: the moved
   * period's start and paid end when billing-day moves lengthened it, else the schedule's dates.
   *
   * @param moved the subscription's moved period; ignored when null or of another cycle
   */
  public static PaidPeriod running(BillingSchedule schedule, long nextCycle, MovedPeriod moved) {
    long paid = nextCycle - 1;
    if (paid < 1) {
      throw new IllegalArgumentException("no paid period before cycle " + nextCycle);
    }
    LocalDate until = schedule.dueDate(nextCycle);
    if (moved != null && moved.cycle() == paid && !moved.paidUntil().isAfter(until)) {
      // Also when the move added no day (a 31st clamped like the 30th): the start stays real.
      return new PaidPeriod(
          paid, moved.from(), moved.paidUntil(), until, moved.addedWorth(), moved.addedPer());
    }
    return new PaidPeriod(paid, schedule.dueDate(paid), until, until, 0, 1);
  }

  /** The running period of {@code sub} (on cycle 2 or later). */
  public static PaidPeriod running(Subscription sub) {
    return running(sub.schedule(), sub.cycle(), sub.lifecycle().moved());
  }

  /** Whether {@code date} lies in the period's dates. */
  public boolean contains(LocalDate date) {
    return !date.isBefore(from) && date.isBefore(until);
  }

  /** The days its own charge paid for. */
  public long paidDays() {
    return Proration.daysLeft(from, paidUntil);
  }

  /** The days billing-day moves added after the paid ones. */
  public long addedDays() {
    return Proration.daysLeft(paidUntil, until);
  }

  /**
   * What the days from {@code today} (included) to the end are worth at {@code price} a period:
   * {@code price x (paid days left / paid days + addedWorth / addedPer x added days left / added
   * days)}, half up on the absolute value. Without added days, exactly {@link Proration#share}.
   */
  public Money left(Money price, LocalDate today) {
    long paidLeft = Proration.daysLeft(today, paidUntil);
    long addedLeft = Proration.daysLeft(today.isAfter(paidUntil) ? today : paidUntil, until);
    long added = addedDays();
    if (added == 0) {
      return Proration.share(price, paidLeft, paidDays());
    }
    BigInteger paidDays = BigInteger.valueOf(paidDays());
    BigInteger addedDays = BigInteger.valueOf(added);
    BigInteger per = BigInteger.valueOf(addedPer);
    BigInteger numerator =
        BigInteger.valueOf(paidLeft)
            .multiply(addedDays)
            .multiply(per)
            .add(
                BigInteger.valueOf(addedLeft)
                    .multiply(paidDays)
                    .multiply(BigInteger.valueOf(addedWorth)));
    BigInteger denominator = paidDays.multiply(addedDays).multiply(per);
    return Proration.fraction(price, numerator, denominator, RoundingMode.HALF_UP);
  }

  /**
   * The unused part of the period's own charge {@code charged} on {@code today} (counted as used),
   * rounded down: the paid days after today over the paid days. The added days are not in it: their
   * charge is carried to the next charge, not collected.
   */
  public Money unusedOfCharge(Money charged, LocalDate today) {
    return Proration.shareRoundedDown(charged, unusedPaidDays(today), paidDays());
  }

  /** The paid days after {@code today}. */
  public long unusedPaidDays(LocalDate today) {
    return Proration.daysLeft(today.plusDays(1), paidUntil);
  }

  /** How {@link #left} was reached, for the history. */
  public String describeLeft(LocalDate today) {
    long paidLeft = Proration.daysLeft(today, paidUntil);
    String paid = paidLeft + " of " + paidDays() + " days left in cycle " + cycle;
    if (addedDays() == 0) {
      return paid;
    }
    long addedLeft = Proration.daysLeft(today.isAfter(paidUntil) ? today : paidUntil, until);
    return paid
        + " and "
        + addedLeft
        + " of "
        + addedDays()
        + " days the billing day added (worth "
        + addedWorth
        + "/"
        + addedPer
        + " of a period)";
  }
}
