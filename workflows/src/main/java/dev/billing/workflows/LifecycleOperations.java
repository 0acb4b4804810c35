package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.Money;
import dev.billing.domain.Pause;
import dev.billing.domain.PendingPlanChange;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Proration;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.domain.RecordInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.util.stream.Stream;

/**
 * The lifecycle changes the API asks for, applied on the workflow's main thread at a safe point.
 * Each {@code refusal} method is the rule the update's validator applies (so a refused request
 * never enters history); each {@code apply} method checks it again, because another change may
 * have been applied between validation and its turn, and fails the update with a typed
 * ApplicationFailure ({@link UpdateRejections}) when the state no longer allows it.
 *
 * <p>Rules (docs/lifecycle.md has the diagram):
 * <ul>
 *   <li>Pause: from TRIALING, ACTIVE or PAST_DUE; for N cycles (skips the next N periods), until a
 *       date (billing restarts with the first due date on or after it) or open-ended. No reminder,
 *       no charge and no dunning retry while paused; each period due meanwhile is PAUSED_SKIPPED.
 *   <li>Resume: billing restarts with the cycle the subscription is on (the first whose due date
 *       has not come while paused), so the paused time is never charged and no period twice.
 *   <li>Plan now: the price difference for the days left in the paid period (today included) is
 *       charged at once when positive ({@link MoneyChanges}), credited to the next charge when
 *       negative. At period end: held as a pending change and applied with the next cycle's charge.
 *   <li>Billing day: the next due date moves to the first date with the new day on or after it;
 *       the days added are charged pro rata with that next charge.
 * </ul>
 */
final class LifecycleOperations {
  private final RunState run;
  private final PeriodCollection periods;
  private final PaymentCollector collector;
  private final RequestLog requests;
  private final MoneyChanges money;
  private final Gateway gateway;

  LifecycleOperations(RunState run, Gateway gateway, PaymentCollector collector) {
    this.run = run;
    this.periods = run.periods;
    this.collector = collector;
    this.requests = run.requests;
    this.gateway = gateway;
    this.money = new MoneyChanges(run, gateway);
  }

  // ---- Refusals: null when allowed, else why not (the validators' and the apply steps' rule).

  String pauseRefusal(PauseRequest request, boolean cancelling) {
    return ChangeRules.pause(run.current(), request, cancelling, today(run.current()));
  }

  String resumeRefusal(boolean cancelling) {
    return ChangeRules.resume(run.current(), cancelling);
  }

  String planRefusal(PlanChangeRequest request, boolean cancelling) {
    return ChangeRules.plan(run.current(), request, cancelling, requests.pendingUpgrade());
  }

  String billingDayRefusal(BillingDayChange request, boolean cancelling) {
    return ChangeRules.billingDay(run.current(), request, cancelling);
  }

  String payRefusal(boolean cancelling) {
    OpenPeriod settling = firstAwaitingOutcome();
    return ChangeRules.pay(run.current(), cancelling, owedCycle(), settling == null ? null : settling.cycle());
  }

  String waiveRefusal(WaiveRequest request, boolean cancelling) {
    return ChangeRules.waive(run.current(), request, cancelling);
  }

  // ---- Apply steps.

  void pause(PauseRequest request, String actor) {
    refuseIf(pauseRefusal(request, false));
    Subscription sub = run.current();
    long cycle = sub.cycle();
    BillingSchedule schedule = sub.schedule();
    LocalDate resumesOn = request.cycles() != null ? schedule.dueDate(cycle + request.cycles()) : request.until();
    pauseNow(new Pause(today(sub), resumesOn, blankToNull(request.reason())), Process.API, actor);
  }

  /** Dunning ended with PAUSE: paused until someone resumes it. */
  void pauseAfterDunning(String reason) {
    if (run.current().status().isTerminal() || run.current().status() == SubscriptionStatus.PAUSED) {
      return;
    }
    pauseNow(new Pause(today(run.current()), null, reason), Process.RETRY, SubscriptionChanges.SYSTEM_ACTOR);
  }

  private void pauseNow(Pause pause, Process process, String actor) {
    Subscription sub = run.current();
    BillingSchedule schedule = sub.schedule();
    LocalDate restartsOn = pause.resumesOn() == null ? null
        : schedule.dueDate(schedule.firstCycleOnOrAfter(sub.cycle(), pause.resumesOn()));
    String detail = "paused" + (pause.resumesOn() == null ? " until resumed"
        : "; billing restarts with the payment due " + restartsOn)
        + (pause.reason() == null ? "" : ": " + pause.reason());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.paused(sub, pause, restartsOn, process, actor, detail, now()));
    run.notice(notice(NotifyCustomerInput.Kind.SUBSCRIPTION_PAUSED, "paused-v" + run.current().version(),
        run.current().price(), pause.resumesOn(), pause.reason()));
    run.outcome(detail);
    run.replan();
  }

  void resume(String actor, Process process) {
    refuseIf(resumeRefusal(false));
    Subscription sub = run.current();
    String detail = (process == Process.PAUSE ? "pause ended" : "resumed") + "; next payment cycle "
        + sub.cycle() + " due " + sub.schedule().dueDate(sub.cycle());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.resumed(sub, statusAfterPause(), process, actor, detail, now()));
    Subscription resumed = run.current();
    run.notice(notice(NotifyCustomerInput.Kind.SUBSCRIPTION_RESUMED, "resumed-v" + resumed.version(),
        resumed.amountDueFor(resumed.cycle()), resumed.schedule().dueDate(resumed.cycle()), null));
    run.outcome(detail);
    run.replan();
  }

  /** The period due while paused is not billed. */
  void skipWhilePaused() {
    run.phase(Phase.RECORDING_PAYMENT);
    long cycle = run.current().cycle();
    run.record(LifecycleChanges.skipped(run.current(), now()));
    run.outcome("paused: cycle " + cycle + " skipped (PAUSED_SKIPPED)");
    run.nextRun();
  }

  void cancelAtPeriodEnd(CancelRequest request, String actor) {
    refuseIf(ChangeRules.cancelAtPeriodEnd(run.current()));
    Subscription sub = run.current();
    LocalDate endsOn = sub.schedule().dueDate(sub.cycle());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.cancellationScheduled(sub, endsOn, actor, request.reason(), now()));
    run.outcome("cancels at period end, on " + endsOn + "; no further charge");
    run.replan();
  }

  void changePlan(PlanChangeRequest request, String actor) {
    refuseIf(planRefusal(request, false));
    Subscription sub = run.current();
    if (request.effective() == PlanChangeRequest.Effective.PERIOD_END) {
      PendingPlanChange change = new PendingPlanChange(request.sku(), request.price(), sub.cycle());
      run.phase(Phase.RECORDING_PAYMENT);
      run.record(LifecycleChanges.planChangeScheduled(sub, change, actor, now()));
      run.notice(notice(NotifyCustomerInput.Kind.PLAN_CHANGED, "plan-v" + run.current().version(),
          request.price(), sub.schedule().dueDate(sub.cycle()), request.sku()));
      run.outcome("plan change to " + request.sku() + " at " + request.price() + " held for cycle "
          + sub.cycle() + " (due " + sub.schedule().dueDate(sub.cycle()) + ")");
      return;
    }
    changePlanNow(sub, request, actor);
  }

  private void changePlanNow(Subscription sub, PlanChangeRequest request, String actor) {
    LocalDate today = today(sub);
    PeriodStatus running = PlanProration.inPaidDates(sub, today) ? periodStatus(sub.cycle() - 1) : null;
    PlanProration proration = PlanProration.of(sub, request, today, running);
    if (proration.chargeNow()) {
      money.upgradeNow(sub, request, actor, sub.cycle() - 1, proration.prorated(), proration.why());
      return;
    }
    money.recordPlanChange(request.sku(), request.price(), proration.balance(), null, actor, proration.detail());
  }

  /** A pending plan change takes effect with the charge of its cycle: recorded just before it. */
  void applyPendingPlan(long cycle) {
    Subscription sub = run.current();
    PendingPlanChange change = sub.lifecycle().pendingChange();
    if (change == null || cycle < change.effectiveCycle()) {
      return;
    }
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.planChanged(sub, change.sku(), change.price(), sub.lifecycle().balance(),
        null, Process.INITIAL, SubscriptionChanges.SYSTEM_ACTOR, "plan " + sub.sku() + " -> "
            + change.sku() + " at " + change.price() + " from cycle " + cycle + " (held change)", now()));
  }

  void changeBillingDay(BillingDayChange request, String actor) {
    refuseIf(billingDayRefusal(request, false));
    Subscription sub = run.current();
    long cycle = sub.cycle();
    BillingSchedule old = sub.schedule();
    BillingSchedule moved = old.withBillingDay(cycle, request.billingDay());
    LocalDate oldDue = old.dueDate(cycle);
    LocalDate newDue = moved.dueDate(cycle);
    long added = Proration.daysLeft(oldDue, newDue);
    Money balance = sub.lifecycle().balance();
    String detail = "billing day " + old.billingDay() + " -> " + request.billingDay() + "; cycle "
        + cycle + " moves from " + oldDue + " to " + newDue;
    if (added > 0 && sub.lastPaymentAt() != null) {
      long days = Proration.daysLeft(oldDue, old.dueDate(cycle + 1));
      Money extra = Proration.share(sub.price(), added, days);
      balance = balance == null ? extra : balance.plus(extra);
      detail += "; " + added + " added days (" + extra + ") are charged with it";
    }
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(LifecycleChanges.billingDayChanged(sub, moved, run.movedReminderAt(moved), balance,
        actor, detail, now()));
    run.outcome(detail);
    run.replan();
  }

  /** Manual repayment of the oldest owed period. */
  void payNow(PayNowRequest request) {
    refuseIf(payRefusal(false));
    long cycle = owedCycle();
    PaymentCollector.ManualResult result = collector.payNow(cycle);
    String outcome = "manual payment of cycle " + cycle + ": " + result.message();
    run.outcome(outcome);
    if (result.outcome() == PaymentCollector.ManualOutcome.PENDING
        || result.outcome() == PaymentCollector.ManualOutcome.UNKNOWN) {
      // The period's collection resolves it; the client is told it is pending, not paid.
      requests.remember(request, AppliedRequest.Status.PENDING, outcome, null);
    }
    if (result.outcome() == PaymentCollector.ManualOutcome.DECLINED) {
      throw ApplicationFailure.newNonRetryableFailure("the payment of cycle " + cycle + " was declined: "
          + result.message(), UpdateRejections.PAYMENT_DECLINED);
    }
  }

  void waive(WaiveRequest request, String actor) {
    refuseIf(waiveRefusal(request, false));
    long cycle = request.cycle();
    refuseIfAwaitingOutcome(cycle);
    Period stored = load(cycle);
    if (stored.status() != PeriodStatus.ERROR) {
      throw refusal("period " + cycle + " is " + stored.status() + "; only an unpaid (ERROR) period can be waived");
    }
    Subscription sub = run.current();
    SubscriptionStatus status = sub.status() == SubscriptionStatus.PAST_DUE && !periods.dunningOtherThan(cycle)
        ? SubscriptionStatus.ACTIVE : sub.status();
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change = LifecycleChanges.waived(sub, stored, status, actor, blankToNull(request.reason()), now());
    periods.remove(cycle);
    periods.removeUnpaid(cycle);
    run.record(change);
    run.outcome("cycle " + cycle + " waived (" + stored.amount() + ")");
  }

  void refund(RefundRequest request, String actor) {
    refuseIf(ChangeRules.refund(request));
    Period stored = load(request.cycle());
    if (money.refundFromRecord(request, stored, actor)) {
      return;
    }
    money.refund(request, stored, refundable(stored, request.amount()), actor, blankToNull(request.reason()));
  }

  /** See {@link MoneyChanges#refundUnused}. */
  void refundUnused(CancelRequest request, String actor) {
    money.refundUnused(request, actor);
  }

  /** A timer of a change whose money is unknown fired: see {@link MoneyChanges#resolvePending}. */
  void resolvePending(String requestId) {
    money.resolvePending(requestId);
  }

  /**
   * The sentence for a balance a cancellation leaves behind, null when there is none. Refunding a
   * credit is a policy decision: it is recorded, never refunded here. A debt (cycles carried below
   * the gateway's minimum, added days, an upgrade's difference too small to charge) is written off:
   * after the end nothing more is charged, and it is said, never dropped silently.
   */
  String balanceLeftAtCancellation() {
    Money balance = run.current().lifecycle().balance();
    if (balance == null || balance.minor() == 0) {
      return null;
    }
    if (balance.minor() < 0) {
      return "a credit of " + new Money(-balance.minor(), balance.currency())
          + " was left unused; it is not refunded";
    }
    Money minimum = ChargeMinimums.minimum(balance.currency());
    return balance + " still owed" + (ChargeMinimums.chargeable(balance) ? ""
        : " (below the gateway's minimum charge of " + minimum + ")") + " is written off; it is not charged";
  }

  /** The subscription as it ends: a debt left is written off (see {@link #balanceLeftAtCancellation}). */
  Subscription withDebtWrittenOff() {
    Subscription sub = run.current();
    Money balance = sub.lifecycle().balance();
    return balance == null || balance.minor() <= 0 ? sub
        : sub.withLifecycle(sub.lifecycle().withBalance(null));
  }

  private Money refundable(Period stored, Money requested) {
    if (stored.status() != PeriodStatus.COMPLETED && stored.status() != PeriodStatus.REFUNDED) {
      throw refusal("period " + stored.cycle() + " is " + stored.status()
          + "; only a collected period can be refunded");
    }
    if (stored.transactionId() == null) {
      throw refusal("period " + stored.cycle() + " was paid by credit; nothing was charged to refund");
    }
    Money left = stored.refundable();
    // Refunds of its charge sent without an answer yet (by this run or an ended one) may have moved.
    long waiting = stored.refunds().stream()
        .filter(r -> !r.made() && r.transactionId().equals(stored.transactionId()))
        .mapToLong(r -> r.amount().minor()).sum();
    if (waiting > 0) {
      left = new Money(Math.max(0, left.minor() - waiting), left.currency());
    }
    if (left.minor() <= 0) {
      throw refusal("period " + stored.cycle() + " is refunded in full already");
    }
    if (requested == null) {
      return left;
    }
    if (!requested.currency().equals(left.currency())) {
      throw refusal("the refund's currency must be the period's (" + left.currency() + ")");
    }
    if (requested.minor() <= 0) {
      throw refusal("the refund amount must be more than zero");
    }
    if (requested.minor() > left.minor()) {
      throw refusal("at most " + left + " of period " + stored.cycle() + " can be refunded");
    }
    return requested;
  }

  /** Unpaid periods older than their stale age stop being owed (STALE). */
  void markStale(UnpaidPeriod unpaid) {
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change = LifecycleChanges.stale(run.current(), unpaid, now());
    periods.removeUnpaid(unpaid.cycle());
    run.record(change);
    run.outcome("cycle " + unpaid.cycle() + " unpaid for " + unpaid.staleAfterDays() + " days: STALE");
  }

  SubscriptionStatus statusAfterPause() {
    Subscription sub = run.current();
    if (periods.dunningOtherThan(-1)) {
      return SubscriptionStatus.PAST_DUE;
    }
    boolean trial = sub.lifecycle().trialEndsOn() != null && sub.lastPaymentAt() == null;
    return trial ? SubscriptionStatus.TRIALING : SubscriptionStatus.ACTIVE;
  }

  /** The oldest period that manual repayment can collect now: in dunning or unpaid after it. */
  private Long owedCycle() {
    Stream<Long> dunning = periods.openPeriods().stream()
        .filter(p -> p.state() == State.DUNNING && !p.outcomeUnknown()).map(OpenPeriod::cycle);
    Stream<Long> unpaid = periods.unpaid().stream().map(UnpaidPeriod::cycle);
    return Stream.concat(dunning, unpaid).min(Long::compare).orElse(null);
  }

  private OpenPeriod firstAwaitingOutcome() {
    return periods.openPeriods().stream()
        .filter(p -> p.state() == State.PENDING_SETTLEMENT || p.outcomeUnknown())
        .findFirst().orElse(null);
  }

  private void refuseIfAwaitingOutcome(long cycle) {
    OpenPeriod open = periods.open(cycle);
    if (open != null && (open.state() == State.PENDING_SETTLEMENT || open.outcomeUnknown())) {
      throw refusal("a charge of period " + cycle + " may still settle; wait for its outcome");
    }
  }

  /** The stored status of a period; null when it has none. */
  private PeriodStatus periodStatus(long cycle) {
    Period stored = gateway.period(run.current(), cycle);
    return stored == null ? null : stored.status();
  }

  private Period load(long cycle) {
    return gateway.load(run.current(), cycle);
  }

  private NotifyCustomerInput notice(NotifyCustomerInput.Kind kind, String id, Money amount,
      LocalDate date, String reason) {
    return notice(run.current(), kind, id, amount, date, reason);
  }

  static NotifyCustomerInput notice(Subscription sub, NotifyCustomerInput.Kind kind, String id,
      Money amount, LocalDate date, String reason) {
    String sku = kind == NotifyCustomerInput.Kind.PLAN_CHANGED && reason != null ? reason : sub.sku();
    return new NotifyCustomerInput(kind, BillingIds.messageId(sub.subscriptionId(), sub.cycle(), id),
        sub.accountId(), sub.subscriptionId(), sub.cycle(), sub.email(), sku, amount, date,
        sub.paymentMethod().mask(), kind == NotifyCustomerInput.Kind.PLAN_CHANGED ? null : reason,
        sub.schedule().timeZone(), now(), sub.locale());
  }

  private static String changeable(Subscription sub, boolean cancelling) {
    return sub.status().isTerminal() || cancelling ? "subscription is cancelled" : null;
  }

  private static void refuseIf(String refusal) {
    if (refusal != null) {
      throw refusal(refusal);
    }
  }

  static ApplicationFailure refusal(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, UpdateRejections.TRANSITION_NOT_ALLOWED);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
