package dev.billing.domain;

import java.time.LocalDate;
import java.util.Objects;

/**
 * The paid period in service as it was before billing-day moves lengthened it: a move numbers the
 * schedule again from the new next due date, so the schedule alone no longer knows when the running
 * period started or what its own charge paid for.
 *
 * @param cycle the paid cycle in service when the first move was made
 * @param from the date that period started (its due date)
 * @param paidUntil the end of what its own charge paid for: the due date of the next cycle before
 *     any move; the days from here to the moved due date are the added days
 * @param addedWorth with {@code addedPer}: what the moves charged for the added days, as a share of
 *     a period's price ({@code addedWorth / addedPer}); each move priced its days as a share of the
 *     period that would have followed
 * @param addedPer the denominator of that share; at least 1
 */
public record MovedPeriod(
    long cycle, LocalDate from, LocalDate paidUntil, long addedWorth, long addedPer) {

  public MovedPeriod {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(paidUntil, "paidUntil");
    if (cycle < 1 || !from.isBefore(paidUntil) || addedWorth < 0 || addedPer < 1) {
      throw new IllegalArgumentException("not a moved period: " + cycle + " " + from);
    }
  }

  /**
   * The running period after a move of cycle {@code cycle}'s due date (the next to bill) that adds
   * {@code added} days priced as {@code added / base} of a period. A second move of the same period
   * keeps its start and paid end and adds its share to the first's.
   *
   * @param current the moved period recorded so far; null or of another cycle when none applies
   * @param before the schedule before this move
   */
  public static MovedPeriod after(
      MovedPeriod current, BillingSchedule before, long cycle, long added, long base) {
    if (cycle < 2 || added < 0 || base < 1) {
      throw new IllegalArgumentException("no paid period before cycle " + cycle);
    }
    long paid = cycle - 1;
    if (current == null || current.cycle() != paid) {
      return reduced(paid, before.dueDate(paid), before.dueDate(cycle), added, base);
    }
    long worth =
        Math.addExact(
            Math.multiplyExact(current.addedWorth(), base),
            Math.multiplyExact(added, current.addedPer()));
    return reduced(
        paid,
        current.from(),
        current.paidUntil(),
        worth,
        Math.multiplyExact(current.addedPer(), base));
  }

  private static MovedPeriod reduced(
      long cycle, LocalDate from, LocalDate paidUntil, long worth, long per) {
    long gcd = gcd(worth, per);
    return new MovedPeriod(cycle, from, paidUntil, worth / gcd, per / gcd);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? Math.max(a, 1) : gcd(b, a % b);
  }
}
