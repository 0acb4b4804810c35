package dev.billing.workflows.subscription;

import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.WaiveRequest;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The lifecycle changes the API asks for, applied on the workflow's main thread at a safe point
 * ({@link QueuedChange#applyTo}). The validators ask {@link ChangeRules} so a refused request never
 * enters history; each apply step asks again, because another change may have been applied between
 * validation and its turn, and fails the update with a typed ApplicationFailure ({@link
 * UpdateRejections}) when the state no longer allows it. The steps live by concern: {@link Pauses},
 * {@link PlanChanges}, {@link PeriodChanges}, {@link CustomerChanges}, and the money they move in
 * {@link MoneyChanges}; docs/lifecycle.md has the diagram.
 */
final class LifecycleOperations {
  private final RunState run;
  private final Pauses pauses;
  private final PlanChanges plans;
  private final PeriodChanges periodChanges;
  private final CustomerChanges customers;
  private final MoneyChanges money;
  private final Reactivations reactivations;

  LifecycleOperations(RunState run, Gateway gateway, PaymentCollector collector) {
    this.run = run;
    this.reactivations = new Reactivations(run);
    this.money = new MoneyChanges(run, gateway);
    this.pauses = new Pauses(run);
    this.plans = new PlanChanges(run, gateway, money);
    this.periodChanges = new PeriodChanges(run, gateway, collector, money);
    this.customers = new CustomerChanges(run);
  }

  /** The validator's rule for manual repayment: something must be owed, and its outcome known. */
  String payRefusal(boolean cancelling) {
    return periodChanges.payRefusal(cancelling);
  }

  void pause(PauseRequest request, String actor) {
    pauses.pause(request, actor);
  }

  /** Dunning ended with PAUSE: paused until someone resumes it. */
  void pauseAfterDunning(String reason) {
    pauses.pauseAfterDunning(reason);
  }

  void resume(String actor, Process process) {
    pauses.resume(actor, process);
  }

  /** The period due while paused is not billed. */
  void skipWhilePaused() {
    pauses.skipWhilePaused();
  }

  void changePlan(PlanChangeRequest request, String actor) {
    plans.changePlan(request, actor);
  }

  /** A pending plan change takes effect with the charge of its cycle: recorded just before it. */
  void applyPendingPlan(long cycle) {
    plans.applyPendingPlan(cycle);
  }

  void changeBillingDay(BillingDayChange request, String actor) {
    plans.changeBillingDay(request, actor);
  }

  void changeCustomer(CustomerChange change, String actor) {
    customers.changeCustomer(change, actor);
  }

  void payNow(PayNowRequest request) {
    periodChanges.payNow(request);
  }

  void waive(WaiveRequest request, String actor) {
    periodChanges.waive(request, actor);
  }

  void refund(RefundRequest request, String actor) {
    periodChanges.refund(request, actor);
  }

  /** Unpaid periods older than their stale age stop being owed (STALE). */
  void markStale(UnpaidPeriod unpaid) {
    periodChanges.markStale(unpaid);
  }

  /** See {@link UnusedDaysRefunds#refundUnused}. */
  Money refundUnused(CancelRequest request, String actor) {
    return money.unusedDays.refundUnused(request, actor);
  }

  /** A timer of a change whose money is unknown fired: see {@link MoneyChanges#resolvePending}. */
  void resolvePending(String requestId) {
    money.resolvePending(requestId);
  }

  // ---- Cancellation.

  /** The validator's rule for a reactivation. */
  String reactivateRefusal() {
    return reactivations.rule();
  }

  /** See {@link Reactivations}. */
  void reactivate(String actor, String reason) {
    reactivations.reactivate(actor, blankToNull(reason));
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
      return "a credit of "
          + new Money(-balance.minor(), balance.currency())
          + " was left unused; it is not refunded";
    }
    Money minimum = ChargeMinimums.minimum(balance.currency());
    return balance
        + " still owed"
        + (ChargeMinimums.chargeable(balance)
            ? ""
            : " (below the gateway's minimum charge of " + minimum + ")")
        + " is written off; it is not charged";
  }

  /**
   * The subscription as it ends: a debt left is written off (see {@link
   * #balanceLeftAtCancellation}).
   */
  Subscription withDebtWrittenOff() {
    Subscription sub = run.current();
    Money balance = sub.lifecycle().balance();
    return balance == null || balance.minor() <= 0
        ? sub
        : sub.withLifecycle(sub.lifecycle().withBalance(null));
  }

  // ---- Shared by the steps.

  static void refuseIf(String refusal) {
    if (refusal != null) {
      throw refusal(refusal);
    }
  }

  static ApplicationFailure refusal(String message) {
    return ApplicationFailure.newNonRetryableFailure(
        message, UpdateRejections.TRANSITION_NOT_ALLOWED);
  }

  static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
