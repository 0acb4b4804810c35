package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.refuseIf;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.Money;
import dev.billing.domain.MovedPeriod;
import dev.billing.domain.PaidPeriod;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Proration;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.domain.TermChange;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Plan and billing-day changes. A plan change now charges the prorated difference at once ({@link
 * PlanProration}, {@link Upgrades}) or credits it to the next charge; at period end it is held and
 * applied with the next cycle's charge. A billing day moves the next due date to the first date
 * with the new day on or after it; the days added are charged with that next charge.
 */
final class PlanChanges {
  private final RunState run;
  private final Gateway gateway;
  private final MoneyChanges money;

  PlanChanges(RunState run, Gateway gateway, MoneyChanges money) {
    this.run = run;
    this.gateway = gateway;
    this.money = money;
  }

  void changePlan(PlanChangeRequest request, String actor) {
    refuseIf(ChangeRules.plan(run.current(), request, false, run.requests.pendingUpgrade()));
    Subscription sub = run.current();
    Term term = ChangeRules.termSwitch(sub, request);
    if (term != null) {
      requireTermChange();
    }
    if (request.effective() == PlanChangeRequest.Effective.PERIOD_END) {
      PendingPlanChange change =
          new PendingPlanChange(request.sku(), request.price(), sub.cycle(), term);
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(PlanRecords.planChangeScheduled(sub, change, actor, now()));
      run.notice(
          run.noticeOf(NotifyCustomerInput.Kind.PLAN_CHANGED, "plan-v" + run.current().version())
              .sku(request.sku())
              .amount(request.price())
              .date(sub.schedule().dueDate(sub.cycle()))
              .build());
      run.outcome(
          "plan change to "
              + request.sku()
              + " at "
              + request.price()
              + " held for cycle "
              + sub.cycle()
              + " (due "
              + sub.schedule().dueDate(sub.cycle())
              + ")");
      return;
    }
    if (term != null) {
      switchTermNow(sub, request, term, actor);
      return;
    }
    changePlanNow(sub, request, actor);
  }

  /**
   * A term switch now ({@link TermChange#now}): the new term's share of its period less the old
   * period's unused days, charged at once when positive and chargeable (as an upgrade is), else
   * carried to or credited against the next charge. The cycle's due date moves: plan again.
   */
  private void switchTermNow(Subscription sub, PlanChangeRequest request, Term term, String actor) {
    LocalDate today = today(sub);
    PeriodStatus running =
        PlanProration.inPaidDates(sub, today) ? periodStatus(sub.cycle() - 1) : null;
    boolean paidRunning = running == PeriodStatus.COMPLETED || running == PeriodStatus.REFUNDED;
    TermChange.Immediate change =
        TermChange.now(
            sub.schedule(),
            sub.cycle(),
            sub.price(),
            term,
            request.price(),
            today,
            paidRunning ? PaidPeriod.running(sub) : null);
    Money net = change.net();
    if (net.minor() > 0 && ChargeMinimums.chargeable(net)) {
      money.upgrades.upgradeNow(sub, request, actor, sub.cycle() - 1, net, change.why(), term);
      return;
    }
    Money balance = sub.lifecycle().balance();
    if (net.minor() != 0) {
      balance = balance == null ? net : balance.plus(net);
    }
    String detail =
        "plan "
            + sub.sku()
            + " -> "
            + request.sku()
            + " at "
            + request.price()
            + ", billed "
            + term.name().toLowerCase(java.util.Locale.ROOT)
            + "; cycle "
            + sub.cycle()
            + " due "
            + change.nextDue()
            + "; "
            + (net.minor() > 0
                ? net
                    + " ("
                    + change.why()
                    + ") is below the gateway's minimum charge: carried to the next charge"
                : net.minor() < 0
                    ? "credit "
                        + new Money(-net.minor(), net.currency())
                        + " ("
                        + change.why()
                        + ") applied to the next charge"
                    : change.why());
    money.upgrades.recordPlanChange(
        request.sku(),
        request.price(),
        balance,
        null,
        null,
        actor,
        detail,
        change.schedule(),
        ReTermedPeriod.of(change, sub, today));
    run.replan();
  }

  /** Only a history that switched a term without the marker could replay here; none did. */
  private static void requireTermChange() {
    if (!WorkflowChanges.termChange()) {
      throw LifecycleOperations.refusal("this run cannot switch the term");
    }
  }

  void changePlanNow(Subscription sub, PlanChangeRequest request, String actor) {
    LocalDate today = today(sub);
    PeriodStatus running =
        PlanProration.inPaidDates(sub, today) ? periodStatus(sub.cycle() - 1) : null;
    PlanProration proration = PlanProration.of(sub, request, today, running);
    if (proration.chargeNow()) {
      money.upgrades.upgradeNow(
          sub, request, actor, sub.cycle() - 1, proration.prorated(), proration.why(), null);
      return;
    }
    money.upgrades.recordPlanChange(
        request.sku(), request.price(), proration.balance(), null, null, actor, proration.detail());
  }

  /** A pending plan change takes effect with the charge of its cycle: recorded just before it. */
  void applyPendingPlan(long cycle) {
    Subscription sub = run.current();
    PendingPlanChange change = sub.lifecycle().pendingChange();
    if (change == null || cycle < change.effectiveCycle()) {
      return;
    }
    BillingSchedule schedule = null;
    if (change.term() != null && change.term() != sub.schedule().term()) {
      requireTermChange();
      schedule = TermChange.atCycle(sub.schedule(), cycle, change.term());
    }
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        PlanRecords.planChanged(
            sub,
            change.sku(),
            change.price(),
            sub.lifecycle().balance(),
            null,
            null,
            schedule,
            null,
            Process.INITIAL,
            SubscriptionChanges.SYSTEM_ACTOR,
            "plan "
                + sub.sku()
                + " -> "
                + change.sku()
                + " at "
                + change.price()
                + (schedule == null
                    ? ""
                    : ", billed "
                        + change.term().name().toLowerCase(java.util.Locale.ROOT)
                        + " (cycle "
                        + (cycle + 1)
                        + " due "
                        + schedule.dueDate(cycle + 1)
                        + ")")
                + " from cycle "
                + cycle
                + " (held change)",
            now()));
  }

  void changeBillingDay(BillingDayChange request, String actor) {
    PendingUpgrade upgrading = run.requests.pendingUpgrade();
    if (upgrading != null && !WorkflowChanges.billingDayPeriod()) {
      // A run on older code moved the day under a pending upgrade: replayed, it still does.
      upgrading = null;
    }
    refuseIf(ChangeRules.billingDay(run.current(), request, false, upgrading));
    Subscription sub = run.current();
    long cycle = sub.cycle();
    BillingSchedule old = sub.schedule();
    BillingSchedule moved = old.withBillingDay(cycle, request.billingDay());
    LocalDate oldDue = old.dueDate(cycle);
    LocalDate newDue = moved.dueDate(cycle);
    long added = Proration.daysLeft(oldDue, newDue);
    Money balance = sub.lifecycle().balance();
    String detail =
        "billing day "
            + old.billingDay()
            + " -> "
            + request.billingDay()
            + "; cycle "
            + cycle
            + " moves from "
            + oldDue
            + " to "
            + newDue;
    long days = Proration.daysLeft(oldDue, old.dueDate(cycle + 1));
    if (added > 0 && sub.lastPaymentAt() != null) {
      Money extra = Proration.share(sub.price(), added, days);
      balance = balance == null ? extra : balance.plus(extra);
      detail += "; " + added + " added days (" + extra + ") are charged with it";
    }
    MovedPeriod running = sub.lifecycle().moved();
    if (cycle >= 2 && sub.lastPaymentAt() != null && WorkflowChanges.billingDayPeriod()) {
      // The moved schedule dates the running period from the new day: keep its real dates.
      running = MovedPeriod.after(running, old, cycle, added, days);
    }
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        LifecycleChanges.billingDayChanged(
            sub, moved, run.movedReminderAt(moved), balance, running, actor, detail, now()));
    run.outcome(detail);
    run.replan();
  }

  /** The stored status of a period; null when it has none. */
  PeriodStatus periodStatus(long cycle) {
    Period stored = gateway.period(run.current(), cycle);
    return stored == null ? null : stored.status();
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
