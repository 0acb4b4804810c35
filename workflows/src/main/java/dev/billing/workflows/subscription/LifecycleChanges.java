package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.MovedPeriod;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.UnpaidPeriod;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The records of the subscription's lifecycle changes (cancellation at period end, waiver, billing
 * day, customer details, email bounces, stale periods, notes); a pause's are in {@link
 * PauseRecords}, a plan change's in {@link PlanRecords}. Pure, like {@link SubscriptionChanges}:
 * the caller passes workflow time, and the change id is unique per version so every change is
 * recorded once.
 */
final class LifecycleChanges {
  private LifecycleChanges() {}

  /** A change of the subscription alone: no period, no receipt. */
  static RecordInput change(
      String what,
      Subscription current,
      Subscription next,
      HistoryEvent event,
      Process process,
      String actor,
      String detail,
      Instant at) {
    return new RecordInput(
        id(what, current), current, next, event, process, actor, detail, null, null, at);
  }

  static String id(String what, Subscription current) {
    return what + "/v" + (current.version() + 1);
  }

  /** Ends at the paid-through date: nothing more is billed, so both date indexes drop it. */
  static RecordInput cancellationScheduled(
      Subscription current, LocalDate endsOn, String actor, String reason, Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withCancelsOn(endsOn))
            .withDates(null, null)
            .withVersion(current.version() + 1);
    return new RecordInput(
        id("cancel-at-period-end", current),
        current,
        next,
        HistoryEvent.CANCELLATION_SCHEDULED,
        Process.API,
        actor,
        "cancels at the end of the paid period, on "
            + endsOn
            + (reason == null ? "" : ": " + reason),
        null,
        null,
        at);
  }

  static RecordInput waived(
      Subscription current,
      Period stored,
      SubscriptionStatus status,
      String actor,
      String reason,
      Instant at) {
    Period period =
        new Period(
            stored.accountId(),
            stored.subscriptionId(),
            stored.cycle(),
            stored.dueDate(),
            stored.amount(),
            PeriodStatus.WAIVED,
            stored.attempts(),
            null,
            stored.failureCode(),
            stored.failureMessage(),
            at,
            stored.refunded(),
            stored.refunds());
    Subscription next = current.withStatus(status).withVersion(current.version() + 1);
    return new RecordInput(
        id("waive-" + stored.cycle(), current),
        current,
        next,
        HistoryEvent.PERIOD_WAIVED,
        Process.API,
        actor,
        "cycle "
            + stored.cycle()
            + " ("
            + stored.amount()
            + ") waived"
            + (reason == null ? "" : ": " + reason),
        period,
        null,
        at);
  }

  /**
   * New anchor; the dates of the cycle the subscription is on follow it. {@code reminderAt} is when
   * the run reminds of that cycle under the new anchor: past it, the cycle goes unreminded.
   */
  static RecordInput billingDayChanged(
      Subscription current,
      BillingSchedule schedule,
      Instant reminderAt,
      Money balance,
      MovedPeriod moved,
      String actor,
      String detail,
      Instant at) {
    long cycle = current.cycle();
    boolean reminded = current.nextReminderDate() == null;
    Subscription next =
        current
            .withSchedule(schedule)
            .withLifecycle(current.lifecycle().withBalance(balance).withMoved(moved))
            .scheduledFor(cycle);
    if (reminded || !schedule.sendsReminders() || !reminderAt.isAfter(at)) {
      // Already reminded for this cycle, or its new reminder date has passed: no second reminder.
      next = next.withDates(null, next.nextPaymentDate());
    }
    return change(
        "billing-day",
        current,
        next.withVersion(current.version() + 1),
        HistoryEvent.BILLING_DAY_CHANGED,
        Process.API,
        actor,
        detail,
        at);
  }

  /**
   * New customer details. Due dates are calendar dates and stay as they are in a new zone: only the
   * instants the run waits for move. A new email clears the bounce, which was the old address's.
   */
  static RecordInput customerChanged(
      Subscription current, CustomerChange change, String actor, String detail, Instant at) {
    String email = change.email() == null ? current.email() : change.email();
    String locale = change.locale() == null ? current.locale() : change.locale();
    BillingSchedule schedule =
        change.timeZone() == null
            ? current.schedule()
            : current.schedule().withZone(change.timeZone());
    Lifecycle lifecycle =
        change.email() == null ? current.lifecycle() : current.lifecycle().withEmailBounce(null);
    Subscription next =
        current
            .withCustomer(email, locale)
            .withSchedule(schedule)
            .withLifecycle(lifecycle)
            .withVersion(current.version() + 1);
    return change(
        "customer", current, next, HistoryEvent.CUSTOMER_CHANGED, Process.API, actor, detail, at);
  }

  static RecordInput emailBounced(Subscription current, EmailBounce bounce, Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withEmailBounce(bounce))
            .withVersion(current.version() + 1);
    return new RecordInput(
        id("email-bounced", current),
        current,
        next,
        HistoryEvent.EMAIL_BOUNCED,
        Process.NOTIFICATION,
        SubscriptionChanges.SYSTEM_ACTOR,
        "message "
            + bounce.messageId()
            + " to "
            + current.email()
            + " bounced"
            + (bounce.reason() == null ? "" : ": " + bounce.reason()),
        null,
        null,
        at);
  }

  static RecordInput stale(Subscription current, UnpaidPeriod unpaid, Instant at) {
    Period period =
        new Period(
            current.accountId(),
            current.subscriptionId(),
            unpaid.cycle(),
            unpaid.dueDate(),
            unpaid.amount(),
            PeriodStatus.STALE,
            unpaid.attempts(),
            null,
            null,
            unpaid.failureMessage(),
            at);
    return new RecordInput(
        id("stale-" + unpaid.cycle(), current),
        current,
        current.withVersion(current.version() + 1),
        HistoryEvent.PERIOD_STALE,
        Process.RETRY,
        SubscriptionChanges.SYSTEM_ACTOR,
        "cycle "
            + unpaid.cycle()
            + " unpaid for more than "
            + unpaid.staleAfterDays()
            + " days: no longer collected",
        period,
        null,
        at);
  }

  /**
   * A history entry that changes nothing but the version: what an operator or reconciliation must
   * see about money whose outcome is open (a pending upgrade charge, a refund without an answer) or
   * that moved without the change it was for.
   */
  static RecordInput note(
      Subscription current,
      String what,
      HistoryEvent event,
      Process process,
      String actor,
      String detail,
      Instant at) {
    return change(
        what,
        current,
        current.withVersion(current.version() + 1),
        event,
        process,
        actor,
        detail,
        at);
  }
}
