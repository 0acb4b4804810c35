package dev.billing.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * When on its due date a subscription is charged, and on its reminder date reminded: at a time of
 * day of its own, so that a million subscriptions due on one day do not all fire, charge and write
 * in the same second. The rule: offset = SHA-256("due-instant:" + subscriptionId), first eight
 * bytes as an unsigned number, modulo the window's seconds; the instant is the local date at 00:00
 * plus that offset, in the subscription's time zone (a local time a DST change skips moves forward
 * by the gap). The window is the schedule's {@link BillingSchedule#dueWindow}, fixed when the
 * subscription was created; none means midnight.
 *
 * <p>The date never changes (the window ends well before the next midnight), so due dates, periods,
 * proration and the date indexes are as before; only the time of day moves. Pure: safe in workflow
 * code.
 */
public final class DueInstants {
  /**
   * The window the API gives new subscriptions unless configured otherwise (BILLING_DUE_WINDOW).
   */
  public static final Duration DEFAULT_WINDOW = Duration.ofHours(6);

  /**
   * Far enough from the next midnight that no offset, even pushed by a DST gap, changes the date.
   */
  public static final Duration MAX_WINDOW = Duration.ofHours(20);

  private static final String SALT = "due-instant:";

  private DueInstants() {}

  /** The instant of the payment of {@code cycle}. */
  public static Instant dueAt(BillingSchedule schedule, long cycle, String subscriptionId) {
    return at(schedule, schedule.dueDate(cycle), subscriptionId);
  }

  /** The instant of the reminder of {@code cycle}. */
  public static Instant reminderAt(BillingSchedule schedule, long cycle, String subscriptionId) {
    return at(schedule, schedule.reminderDate(cycle), subscriptionId);
  }

  /** The subscription's instant on {@code date}. */
  public static Instant at(BillingSchedule schedule, LocalDate date, String subscriptionId) {
    Duration window = schedule.dueWindow();
    if (window == null || window.isZero()) {
      return schedule.startOfDay(date);
    }
    return date.atStartOfDay()
        .plus(offset(subscriptionId, window))
        .atZone(schedule.zone())
        .toInstant();
  }

  /** The subscription's time after midnight: whole seconds in {@code [0, window)}. */
  public static Duration offset(String subscriptionId, Duration window) {
    long seconds = window.getSeconds();
    if (seconds <= 0) {
      return Duration.ZERO;
    }
    return Duration.ofSeconds(Long.remainderUnsigned(SaltedHash.of(SALT, subscriptionId), seconds));
  }

  /**
   * @throws IllegalArgumentException unless null or whole seconds from PT0S to {@link #MAX_WINDOW}
   */
  public static void requireWindow(Duration window) {
    if (window != null
        && (window.isNegative() || window.compareTo(MAX_WINDOW) > 0 || window.getNano() != 0)) {
      throw new IllegalArgumentException(
          "dueWindow must be whole seconds from PT0S to " + MAX_WINDOW + ", got " + window);
    }
  }
}
