package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleChanges.id;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.PaidUpgradeCharge;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Process;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import java.time.Instant;

/**
 * The records of a plan change: one in force now and one scheduled for a later cycle. Pure, like
 * {@link LifecycleChanges}.
 */
final class PlanRecords {
  private PlanRecords() {}

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
        current, sku, price, balance, receipt, paid, null, null, process, actor, detail, at);
  }

  /**
   * @param schedule the schedule with a new term (a term switch); null when it stays. The cycle the
   *     subscription is on takes its due date from it; a reminder already sent for it is not sent
   *     again.
   * @param reTermed the paid period an immediate switch re-priced; null when none
   */
  static RecordInput planChanged(
      Subscription current,
      String sku,
      Money price,
      Money balance,
      Receipt receipt,
      PaidUpgradeCharge paid,
      BillingSchedule schedule,
      ReTermedPeriod reTermed,
      Process process,
      String actor,
      String detail,
      Instant at) {
    Lifecycle lifecycle =
        current.lifecycle().withPendingChange(null).withBalance(balance).withUpgradeCharge(null);
    if (reTermed != null) {
      lifecycle = lifecycle.withReTermed(reTermed);
    }
    if (schedule != null && schedule.term() != current.schedule().term()) {
      // The switch re-dates (and re-prices) the running period: a billing-day move's dates go.
      lifecycle = lifecycle.withMoved(null);
    }
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
}
