package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleChanges.change;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Pause;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The records of a pause, of a period skipped while paused and of the resume. Pure, like {@link
 * LifecycleChanges}.
 */
final class PauseRecords {
  private PauseRecords() {}

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
}
