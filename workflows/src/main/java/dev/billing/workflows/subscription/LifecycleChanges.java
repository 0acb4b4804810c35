package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.Pause;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.UnpaidPeriod;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The changes of the subscription lifecycle (pause, resume, plan, cancellation at period end,
 * waiver, refund, billing day, customer details, stale periods). Pure, like {@link
 * SubscriptionChanges}: the caller passes workflow time, and the change id is unique per version so
 * every change is recorded once.
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

  /**
   * Paused: no reminder, and the payment index shows the date billing restarts (none when
   * open-ended).
   */
  static RecordInput paused(
      Subscription current,
      Pause pause,
      LocalDate restartsOn,
      Process process,
      String actor,
      String detail,
      Instant at) {
    Subscription next =
        current
            .withStatus(SubscriptionStatus.PAUSED)
            .withLifecycle(current.lifecycle().withPause(pause))
            .withDates(null, restartsOn)
            .withVersion(current.version() + 1);
    return change(
        "pause", current, next, HistoryEvent.SUBSCRIPTION_PAUSED, process, actor, detail, at);
  }

  /** The period due while paused is skipped; the subscription moves on to the next cycle. */
  static RecordInput skipped(Subscription current, Instant at) {
    long cycle = current.cycle();
    Subscription next =
        current
            .scheduledFor(cycle + 1)
            .withDates(null, current.nextPaymentDate())
            .withVersion(current.version() + 1);
    Period period =
        SubscriptionChanges.period(
            current,
            cycle,
            PeriodStatus.PAUSED_SKIPPED,
            0,
            null,
            null,
            null,
            at,
            current.priceFor(cycle));
    return new RecordInput(
        SubscriptionChanges.changeId(cycle, "skipped"),
        current,
        next,
        HistoryEvent.PERIOD_SKIPPED,
        Process.PAUSE,
        SubscriptionChanges.SYSTEM_ACTOR,
        "paused: cycle " + cycle + " due " + current.schedule().dueDate(cycle) + " not billed",
        period,
        null,
        at);
  }

  /**
   * Resumed on the cycle the subscription is on. Its reminder is due again unless it already went
   * out before the pause.
   */
  static RecordInput resumed(
      Subscription current,
      SubscriptionStatus status,
      Process process,
      String actor,
      String detail,
      Instant at) {
    long cycle = current.cycle();
    Subscription next =
        current
            .withStatus(status)
            .withLifecycle(current.lifecycle().withPause(null))
            .scheduledFor(cycle);
    BillingSchedule schedule = current.schedule();
    boolean reminded =
        schedule.sendsReminders()
            && current.lastReminderAt() != null
            && !current.lastReminderAt().isBefore(schedule.reminderAt(cycle));
    if (reminded) {
      next = next.withDates(null, next.nextPaymentDate());
    }
    return change(
        "resume",
        current,
        next.withVersion(current.version() + 1),
        HistoryEvent.SUBSCRIPTION_RESUMED,
        process,
        actor,
        detail,
        at);
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
   * The new plan in force now.
   *
   * @param receipt the prorated difference charged for the rest of the paid period; null when none
   * @param balance the balance carried to the next charge afterwards (a downgrade's credit)
   * @param paid the upgrade's charge that the receipt records, kept on the item for a return or a
   *     refund of unused days; null when none
   */
  static RecordInput planChanged(
      Subscription current,
      String sku,
      Money price,
      Money balance,
      Receipt receipt,
      PaidUpgradeCharge paid,
      Process process,
      String actor,
      String detail,
      Instant at) {
    return planChanged(
        current, sku, price, balance, receipt, paid, null, process, actor, detail, at);
  }

  /**
   * @param schedule the schedule with a new term (a term switch); null when it stays. The cycle the
   *     subscription is on takes its due date from it; a reminder already sent for it is not sent
   *     again.
   */
  static RecordInput planChanged(
      Subscription current,
      String sku,
      Money price,
      Money balance,
      Receipt receipt,
      PaidUpgradeCharge paid,
      BillingSchedule schedule,
      Process process,
      String actor,
      String detail,
      Instant at) {
    Lifecycle lifecycle =
        current.lifecycle().withPendingChange(null).withBalance(balance).withUpgradeCharge(null);
    Subscription next =
        current
            .withPlan(sku, price)
            .withLifecycle(paid == null ? lifecycle : lifecycle.withUpgradePaid(paid));
    if (schedule != null) {
      long cycle = current.cycle();
      boolean reminded = current.nextReminderDate() == null;
      next = next.withSchedule(schedule).scheduledFor(cycle);
      if (reminded || !schedule.sendsReminders() || !schedule.reminderAt(cycle).isAfter(at)) {
        next = next.withDates(null, next.nextPaymentDate());
      }
    }
    return new RecordInput(
        id("plan", current),
        current,
        next.withVersion(current.version() + 1),
        HistoryEvent.PLAN_CHANGED,
        process,
        actor,
        detail,
        null,
        receipt,
        at);
  }

  static RecordInput planChangeScheduled(
      Subscription current, PendingPlanChange change, String actor, Instant at) {
    Subscription next =
        current
            .withLifecycle(current.lifecycle().withPendingChange(change))
            .withVersion(current.version() + 1);
    return new RecordInput(
        id("plan-scheduled", current),
        current,
        next,
        HistoryEvent.PLAN_CHANGE_SCHEDULED,
        Process.API,
        actor,
        change.sku()
            + " at "
            + change.price()
            + (change.term() == null
                ? ""
                : ", billed " + change.term().name().toLowerCase(java.util.Locale.ROOT))
            + " from cycle "
            + change.effectiveCycle()
            + " (due "
            + current.schedule().dueDate(change.effectiveCycle())
            + ")",
        null,
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
      String actor,
      String detail,
      Instant at) {
    long cycle = current.cycle();
    boolean reminded = current.nextReminderDate() == null;
    Subscription next =
        current
            .withSchedule(schedule)
            .withLifecycle(current.lifecycle().withBalance(balance))
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
