package dev.billing.domain;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.Objects;

/**
 * When a subscription is due. Every due date is computed from the anchor (the month of the first
 * payment and the billing day), never from the previous due date, so a 31st anchor bills Jan 31,
 * Feb 28/29, Mar 31, Apr 30 and never drifts to the 28th. Dates are calendar dates in the
 * subscription's time zone; an instant is the start of that day there.
 *
 * <p>Pure functions of their arguments: safe to call from workflow code.
 *
 * @param dueWindow the part of the day after midnight in which this subscription's own time of day
 *     for reminders and charges falls ({@link DueInstants}); fixed at creation. Null: midnight, as
 *     for subscriptions created before due instants were spread
 */
public record BillingSchedule(
    YearMonth anchorMonth,
    int billingDay,
    Term term,
    String timeZone,
    int reminderDaysBefore,
    Duration dueWindow) {

  public static final int MAX_REMINDER_DAYS = 28;

  public BillingSchedule {
    Objects.requireNonNull(anchorMonth, "anchorMonth");
    Objects.requireNonNull(term, "term");
    requireBillingDay(billingDay);
    zoneOf(timeZone);
    if (reminderDaysBefore < 0 || reminderDaysBefore > MAX_REMINDER_DAYS) {
      throw new IllegalArgumentException(
          "reminderDaysBefore must be between 0 and " + MAX_REMINDER_DAYS);
    }
    DueInstants.requireWindow(dueWindow);
  }

  /** A schedule due at midnight (no window). */
  public BillingSchedule(
      YearMonth anchorMonth, int billingDay, Term term, String timeZone, int reminderDaysBefore) {
    this(anchorMonth, billingDay, term, timeZone, reminderDaysBefore, null);
  }

  /** The same schedule with its due instants spread over {@code window} after midnight. */
  public BillingSchedule withDueWindow(Duration window) {
    return new BillingSchedule(anchorMonth, billingDay, term, timeZone, reminderDaysBefore, window);
  }

  /** The schedule whose first payment is the first billing date on or after {@code startDate}. */
  public static BillingSchedule startingOnOrAfter(
      LocalDate startDate, int billingDay, Term term, String timeZone, int reminderDaysBefore) {
    requireBillingDay(billingDay);
    YearMonth month = YearMonth.from(startDate);
    if (clamp(month, billingDay).isBefore(startDate)) {
      month = month.plusMonths(1);
    }
    return new BillingSchedule(month, billingDay, term, timeZone, reminderDaysBefore);
  }

  /**
   * The schedule with another billing day, numbered so that {@code cycle} falls on the first date
   * with the new day on or after its current due date: no period is billed twice or skipped, and
   * the cycle numbers go on.
   */
  public BillingSchedule withBillingDay(long cycle, int newBillingDay) {
    requireBillingDay(newBillingDay);
    LocalDate current = dueDate(cycle);
    YearMonth month = YearMonth.from(current);
    if (clamp(month, newBillingDay).isBefore(current)) {
      month = month.plusMonths(1);
    }
    YearMonth anchor = month.minusMonths(Math.multiplyExact(cycle - 1, (long) term.months()));
    return new BillingSchedule(
        anchor, newBillingDay, term, timeZone, reminderDaysBefore, dueWindow);
  }

  /**
   * The schedule with another term, numbered so that {@code cycle} falls on {@code due} (a date of
   * this billing day) and every later cycle follows the new term from there: the billing day and
   * the cycle numbers go on, only the interval changes.
   *
   * @throws IllegalArgumentException when {@code due} is not a date of this billing day
   */
  public BillingSchedule withTerm(long cycle, Term newTerm, LocalDate due) {
    Objects.requireNonNull(newTerm, "newTerm");
    if (!clamp(YearMonth.from(due), billingDay).equals(due)) {
      throw new IllegalArgumentException(due + " is not a date of billing day " + billingDay);
    }
    YearMonth anchor =
        YearMonth.from(due).minusMonths(Math.multiplyExact(cycle - 1, (long) newTerm.months()));
    return new BillingSchedule(
        anchor, billingDay, newTerm, timeZone, reminderDaysBefore, dueWindow);
  }

  /** The latest date of this billing day (clamped) on or before {@code date}. */
  public LocalDate billingDateOnOrBefore(LocalDate date) {
    YearMonth month = YearMonth.from(date);
    if (clamp(month, billingDay).isAfter(date)) {
      month = month.minusMonths(1);
    }
    return clamp(month, billingDay);
  }

  /**
   * The same schedule in another time zone. The anchor and billing day stay, so every cycle keeps
   * its number and its calendar due date, which is now a day in {@code newTimeZone}: the instants
   * move by the difference of the two zones' offsets on that date (at most about a day), never to
   * another cycle. Whether a moved instant has already passed is the caller's to judge.
   *
   * @throws IllegalArgumentException when {@code newTimeZone} is not an IANA zone id
   */
  public BillingSchedule withZone(String newTimeZone) {
    return new BillingSchedule(
        anchorMonth, billingDay, term, newTimeZone, reminderDaysBefore, dueWindow);
  }

  /** The first cycle from {@code fromCycle} on whose due date is on or after {@code date}. */
  public long firstCycleOnOrAfter(long fromCycle, LocalDate date) {
    long cycle = fromCycle;
    while (dueDate(cycle).isBefore(date)) {
      cycle++;
    }
    return cycle;
  }

  /** The due date of a cycle; cycle 1 is the first payment. */
  public LocalDate dueDate(long cycle) {
    if (cycle < 1) {
      throw new IllegalArgumentException("cycle starts at 1");
    }
    return clamp(
        anchorMonth.plusMonths(Math.multiplyExact(cycle - 1, (long) term.months())), billingDay);
  }

  public Instant dueAt(long cycle) {
    return startOfDay(dueDate(cycle));
  }

  /** Zero days before means no reminder at all. */
  public boolean sendsReminders() {
    return reminderDaysBefore > 0;
  }

  public LocalDate reminderDate(long cycle) {
    return dueDate(cycle).minusDays(reminderDaysBefore);
  }

  public Instant reminderAt(long cycle) {
    return startOfDay(reminderDate(cycle));
  }

  public ZoneId zone() {
    return zoneOf(timeZone);
  }

  /**
   * Start of the day in the subscription's zone; DST gaps at midnight resolve to the first valid
   * instant.
   */
  public Instant startOfDay(LocalDate date) {
    return date.atStartOfDay(zone()).toInstant();
  }

  public LocalDate dateAt(Instant instant) {
    return LocalDate.ofInstant(instant, zone());
  }

  static LocalDate clamp(YearMonth month, int billingDay) {
    return month.atDay(Math.min(billingDay, month.lengthOfMonth()));
  }

  private static void requireBillingDay(int billingDay) {
    if (billingDay < 1 || billingDay > 31) {
      throw new IllegalArgumentException("billingDay must be between 1 and 31");
    }
  }

  public static ZoneId zoneOf(String timeZone) {
    if (timeZone == null || timeZone.isBlank()) {
      throw new IllegalArgumentException("timeZone is required");
    }
    try {
      return ZoneId.of(timeZone);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "timeZone must be an IANA zone id such as \"Europe/Paris\"");
    }
  }
}
