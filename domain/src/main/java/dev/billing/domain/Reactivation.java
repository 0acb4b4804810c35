package dev.billing.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether a cancelled subscription may bill again, and how it does. Pure: the API asks {@link
 * #refusal} before it starts anything, the workflow asks {@link #reactivated} for the record it
 * writes.
 *
 * <p>Billing restarts with the first cycle whose due date is today or later, from the billing
 * anchor: a cycle due today is charged today, and the days until the next due date are never
 * charged twice: still paid (cancelled now, or ended at period end and reactivated that day) or
 * never served. A reactivation moves no money itself.
 */
public final class Reactivation {
  /** How long after its cancellation a subscription can be reactivated, unless configured. */
  public static final Duration DEFAULT_WINDOW = Duration.ofDays(30);

  private Reactivation() {}

  /** Why a reactivation is refused; {@link #type} names it in the API's problem. */
  public enum Refusal {
    /** Neither cancelled nor cancelling at period end. */
    NOT_CANCELLED("not-cancelled"),
    /** Cancelled longer ago than the window allows. */
    WINDOW_CLOSED("reactivation-window-closed"),
    /** A period was left unpaid (dunning's end, or cancelled while past due). */
    UNPAID_PERIOD("unpaid-period"),
    /** The unused days of the period in service were refunded. */
    REFUNDED_PERIOD("refunded-period"),
    /** Money of it is still moving: a debit settling, a refund or an upgrade charge unanswered. */
    PAYMENT_UNRESOLVED("payment-unresolved"),
    /**
     * It ended before its first payment was collected: it never started, so the customer subscribes
     * again, with a first payment of its own (INCOMPLETE), rather than coming back ACTIVE.
     */
    NEVER_PAID("never-paid");

    private final String type;

    Refusal(String type) {
      this.type = type;
    }

    public String type() {
      return type;
    }
  }

  public record Refused(Refusal reason, String detail) {}

  /**
   * When the subscription was cancelled: every cancellation records the cycle it ended on as a
   * CANCELLED period, at that instant. Empty when the record holds none.
   */
  public static Optional<Instant> cancelledAt(Subscription record, List<Period> periods) {
    return periods.stream()
        .filter(p -> p.cycle() == record.cycle() && p.status() == PeriodStatus.CANCELLED)
        .map(Period::updatedAt)
        .max(Comparator.naturalOrder());
  }

  /**
   * Why the subscription cannot be reactivated now; empty when it can. A cancellation scheduled at
   * period end is always taken back (the workflow judges the rest); an ended subscription must be
   * within {@code window} of its cancellation, owe nothing, have no money still moving, and, while
   * the period it paid for still runs, not have had that period's unused days refunded (they would
   * be served again for free).
   *
   * @param periods every period of the subscription
   */
  public static Optional<Refused> refusal(
      Subscription record, List<Period> periods, Instant now, Duration window) {
    String id = record.subscriptionId();
    if (record.status() == SubscriptionStatus.INCOMPLETE_EXPIRED) {
      // It never started: a customer who never paid subscribes again, with a new first payment.
      return refused(
          Refusal.NOT_CANCELLED,
          "Subscription "
              + id
              + " is INCOMPLETE_EXPIRED: its first payment was never collected; subscribe again.");
    }
    if (!record.status().isTerminal()) {
      return record.lifecycle().cancelsOn() != null
          ? Optional.empty()
          : refused(
              Refusal.NOT_CANCELLED,
              "Subscription " + id + " is " + record.status() + ", not cancelled.");
    }
    if (record.lastPaymentAt() == null) {
      return refused(
          Refusal.NEVER_PAID,
          "Subscription " + id + " ended before its first payment was collected; subscribe again.");
    }
    Optional<Instant> cancelled = cancelledAt(record, periods);
    if (cancelled.isEmpty()) {
      return refused(
          Refusal.WINDOW_CLOSED,
          "Subscription "
              + id
              + " has no record of when it was cancelled; it cannot be reactivated.");
    }
    Instant until = cancelled.get().plus(window);
    if (now.isAfter(until)) {
      return refused(
          Refusal.WINDOW_CLOSED,
          "Subscription "
              + id
              + " was cancelled at "
              + cancelled.get()
              + "; it could be reactivated until "
              + until
              + " ("
              + window.toDays()
              + " days).");
    }
    for (Period period : periods) {
      if (period.status() == PeriodStatus.ERROR) {
        return refused(
            Refusal.UNPAID_PERIOD,
            "Period "
                + period.cycle()
                + " of subscription "
                + id
                + " ("
                + period.amount()
                + ") was left unpaid; a cancelled subscription cannot collect it, so it cannot be"
                + " reactivated.");
      }
    }
    Optional<String> moving = moneyMoving(record, periods);
    if (moving.isPresent()) {
      return refused(
          Refusal.PAYMENT_UNRESOLVED,
          moving.get()
              + " of subscription "
              + id
              + " has no final outcome yet; retry once it has.");
    }
    LocalDate today = record.schedule().dateAt(now);
    LocalDate paidThrough = record.schedule().dueDate(record.cycle());
    if (today.isBefore(paidThrough)) {
      Optional<Period> inService =
          periods.stream().filter(p -> p.cycle() == record.cycle() - 1).findFirst();
      if (inService.isPresent()
          && (inService.get().refunded() != null || !inService.get().refunds().isEmpty())) {
        return refused(
            Refusal.REFUNDED_PERIOD,
            "Period "
                + inService.get().cycle()
                + " of subscription "
                + id
                + " runs until "
                + paidThrough
                + " and was refunded; it can be reactivated from "
                + paidThrough
                + ", when its next payment is due.");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> moneyMoving(Subscription record, List<Period> periods) {
    if (record.lifecycle().upgradeCharge() != null) {
      return Optional.of(
          "The upgrade charge " + record.lifecycle().upgradeCharge().idempotencyKey());
    }
    for (Period period : periods) {
      if (period.status() == PeriodStatus.PENDING_SETTLEMENT) {
        return Optional.of("The payment of period " + period.cycle());
      }
      if (period.refunds().stream().anyMatch(r -> !r.made())) {
        return Optional.of("A refund of period " + period.cycle());
      }
    }
    return Optional.empty();
  }

  /** The cycle billing restarts with: the first, from the one it ended on, due today or later. */
  public static long resumeCycle(Subscription ended, LocalDate today) {
    return ended.schedule().firstCycleOnOrAfter(ended.cycle(), today);
  }

  /**
   * The cancelled subscription billing again from {@code cycle}: TRIALING when its trial never
   * charged and {@code cycle} is the trial's first charge (the trial still runs), else ACTIVE; a
   * pause it ended in is over. The version is the caller's.
   *
   * @param reminderAt when the run would remind of {@code cycle}: a reminder not after {@code now}
   *     is not sent (nor one already sent for that cycle)
   */
  public static Subscription reactivated(
      Subscription ended, long cycle, Instant reminderAt, Instant now) {
    LocalDate trialEnds = ended.lifecycle().trialEndsOn();
    boolean trial =
        trialEnds != null
            && ended.lastPaymentAt() == null
            && !ended.schedule().dueDate(cycle).isAfter(trialEnds);
    Subscription next =
        ended
            .withStatus(trial ? SubscriptionStatus.TRIALING : SubscriptionStatus.ACTIVE)
            .withLifecycle(ended.lifecycle().withPause(null).withCancelsOn(null))
            .scheduledFor(cycle);
    return withReminder(ended, next, cycle, reminderAt, now);
  }

  /**
   * A cancellation at period end taken back: the cycle it is on is billed on its due date again, in
   * the status it has. The version is the caller's.
   */
  public static Subscription cancellationTakenBack(
      Subscription cancelling, Instant reminderAt, Instant now) {
    long cycle = cancelling.cycle();
    Subscription next =
        cancelling.withLifecycle(cancelling.lifecycle().withCancelsOn(null)).scheduledFor(cycle);
    return withReminder(cancelling, next, cycle, reminderAt, now);
  }

  private static Subscription withReminder(
      Subscription before, Subscription next, long cycle, Instant reminderAt, Instant now) {
    BillingSchedule schedule = before.schedule();
    boolean reminded =
        before.lastReminderAt() != null
            && !before.lastReminderAt().isBefore(schedule.reminderAt(cycle));
    if (!schedule.sendsReminders() || reminded || !reminderAt.isAfter(now)) {
      return next.withDates(null, next.nextPaymentDate());
    }
    return next;
  }

  private static Optional<Refused> refused(Refusal reason, String detail) {
    return Optional.of(new Refused(reason, detail));
  }
}
