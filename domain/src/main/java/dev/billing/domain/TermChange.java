package dev.billing.domain;

import java.time.LocalDate;
import java.util.Objects;

/**
 * A switch between MONTHLY and YEARLY billing through a plan change. The billing day and the cycle
 * numbers stay; only the interval changes, and every due date is still computed from the anchor
 * ({@link BillingSchedule#withTerm}). Pure: safe in workflow code.
 *
 * <ul>
 *   <li>At period end: the cycle the subscription is on keeps its due date and is the first billed
 *       at the new price; the cycles after it follow the new term.
 *   <li>Now, while a paid period runs: that period becomes one of the new term, starting on the
 *       latest billing date on or before today (the paid period's own start for a longer term, the
 *       month it is in for a shorter one). The unused days of the old period are credited at the
 *       old price and the days left of the new one are charged at the new price, today included in
 *       both (the new plan serves it), each share rounded half up to the minor unit ({@link
 *       Proration#share}); the difference is charged now when positive, credited when negative.
 *   <li>Now, with nothing paid running (a trial, nothing collected yet, a period skipped or
 *       unpaid): as at period end, with no money.
 * </ul>
 */
public final class TermChange {
  private TermChange() {}

  /**
   * What an immediate switch does.
   *
   * @param schedule the schedule under the new term
   * @param nextDue the due date of the cycle the subscription is on, under the new term
   * @param credit the old price's share of the days left in the old period (zero when nothing paid
   *     runs)
   * @param charge the new price's share of the days left in the new period (zero when nothing paid
   *     runs)
   * @param net {@code charge - credit}: charged now when positive, credited when negative
   * @param why how it was reached, for the history
   */
  public record Immediate(
      BillingSchedule schedule,
      LocalDate nextDue,
      Money credit,
      Money charge,
      Money net,
      String why) {}

  /** The schedule when the switch takes effect with {@code cycle}'s charge. */
  public static BillingSchedule atCycle(BillingSchedule schedule, long cycle, Term term) {
    return schedule.withTerm(cycle, term, schedule.dueDate(cycle));
  }

  /**
   * An immediate switch of a subscription on {@code cycle} (the next to bill), its running period
   * taken from the schedule.
   *
   * @param paidRunning whether today is in the dates of cycle - 1 and that period was paid for
   */
  public static Immediate now(
      BillingSchedule schedule,
      long cycle,
      Money oldPrice,
      Term newTerm,
      Money newPrice,
      LocalDate today,
      boolean paidRunning) {
    PaidPeriod running =
        paidRunning && cycle >= 2 ? PaidPeriod.running(schedule, cycle, null) : null;
    return now(schedule, cycle, oldPrice, newTerm, newPrice, today, running);
  }

  /**
   * An immediate switch of a subscription on {@code cycle} (the next to bill).
   *
   * @param running the paid period in service ({@link PaidPeriod#running}); null when today is not
   *     in a paid period. Its unused days are credited at what they were worth.
   */
  public static Immediate now(
      BillingSchedule schedule,
      long cycle,
      Money oldPrice,
      Term newTerm,
      Money newPrice,
      LocalDate today,
      PaidPeriod running) {
    Objects.requireNonNull(newTerm, "newTerm");
    Money zero = Money.zero(oldPrice.currency());
    if (running == null || cycle < 2) {
      BillingSchedule moved = atCycle(schedule, cycle, newTerm);
      return new Immediate(
          moved, moved.dueDate(cycle), zero, zero, zero, "nothing paid is running: no proration");
    }
    long paid = cycle - 1;
    LocalDate oldStart = running.from();
    LocalDate oldEnd = running.until();
    LocalDate newStart = schedule.billingDateOnOrBefore(today);
    // A billing-day move can leave the start off this billing day: the new period may start on the
    // billing date before it (only the days from today are charged).
    LocalDate earliest = schedule.billingDateOnOrBefore(oldStart);
    if (newStart.isBefore(earliest)) {
      newStart = earliest;
    }
    BillingSchedule moved = schedule.withTerm(paid, newTerm, newStart);
    LocalDate newEnd = moved.dueDate(cycle);
    long oldLeft = Proration.daysLeft(today, oldEnd);
    long oldDays = Proration.daysLeft(oldStart, oldEnd);
    long newLeft = Proration.daysLeft(today, newEnd);
    long newDays = Proration.daysLeft(newStart, newEnd);
    Money credit = running.left(oldPrice, today);
    Money charge = Proration.share(newPrice, newLeft, newDays);
    String why =
        newLeft
            + " of "
            + newDays
            + " days of the "
            + newTerm.name().toLowerCase(java.util.Locale.ROOT)
            + " period "
            + newStart
            + " to "
            + newEnd
            + " at "
            + newPrice
            + " ("
            + charge
            + ") less "
            + (running.addedDays() == 0
                ? oldLeft + " of " + oldDays + " unused days of cycle " + paid
                : running.describeLeft(today))
            + " at "
            + oldPrice
            + " ("
            + credit
            + ")";
    return new Immediate(moved, newEnd, credit, charge, charge.minus(credit), why);
  }
}
