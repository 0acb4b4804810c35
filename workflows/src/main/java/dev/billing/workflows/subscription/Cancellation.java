package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * The end of a subscription: unused days refunded when asked, a debt left written off and said so,
 * the cancellation recorded and, when the customer did not ask for it or money was left behind,
 * notified; then, while money already asked for may still move, settle-only.
 */
final class Cancellation {
  private static final Logger log = Workflow.getLogger(Cancellation.class);

  private final RunState run;
  private final PeriodCollection periods;
  private final ChangeQueue changes;
  private final LifecycleOperations lifecycle;
  private final PaymentCollector collector;

  Cancellation(RunState run, LifecycleOperations lifecycle, PaymentCollector collector) {
    this.run = run;
    this.periods = run.periods;
    this.changes = run.changes;
    this.lifecycle = lifecycle;
    this.collector = collector;
  }

  /**
   * Records the cancellation under way: a client's (taken from the queue, whose handler is answered
   * once it is recorded), dunning's or a period end's.
   */
  void cancel() {
    QueuedChange.CancelNow asked = changes.cancelAsked();
    if (run.cancellation() == null) {
      run.cancel(asked.request());
    }
    CancelRequest cancellation = run.cancellation();
    run.phase(Phase.CANCELLING);
    run.waitingUntil(null);
    if (cancellation.refundUnused()) {
      Money credit =
          lifecycle.refundUnused(cancellation, SubscriptionChanges.actorOf(cancellation));
      if (credit.minor() > 0) {
        run.replace(withCreditRefunded(run.current(), credit));
      }
    }
    String balance = lifecycle.balanceLeftAtCancellation();
    if (balance != null) {
      // Never silent: the history entry, the outcome and the notice say what was left.
      String reason =
          cancellation.reason() == null ? balance : cancellation.reason() + "; " + balance;
      cancellation =
          new CancelRequest(
              reason,
              cancellation.requestedBy(),
              cancellation.atPeriodEnd(),
              cancellation.refundUnused(),
              cancellation.requestId());
      run.cancel(cancellation);
      run.replace(lifecycle.withDebtWrittenOff());
    }
    Process process = run.cancelProcess();
    String actor =
        process == Process.API
            ? SubscriptionChanges.actorOf(cancellation)
            : SubscriptionChanges.SYSTEM_ACTOR;
    RecordInput change =
        process == Process.API
            ? SubscriptionChanges.cancellation(run.current(), cancellation, RunState.now())
            : SubscriptionChanges.cancellation(
                run.current(), cancellation.reason(), actor, process, RunState.now());
    long endingCycle = run.current().cycle();
    run.write(change);
    run.upsertSearchAttributes(false);
    run.outcome(
        "cancelled by "
            + actor
            + (cancellation.reason() == null ? "" : ": " + cancellation.reason()));
    log.info(
        "subscription {} cancelled at version {}",
        run.current().subscriptionId(),
        run.current().version());
    // The client that cancels is answered; the customer is told too when money was left behind.
    if (process != Process.API || run.cancelAtPeriodEnd() || balance != null) {
      Subscription ended = run.current();
      run.notice(
          NotifyCustomerInput.about(NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED, ended)
              .messageId(BillingIds.messageId(ended.subscriptionId(), endingCycle, "cancelled"))
              .cycle(endingCycle)
              .amount(ended.price())
              .date(ended.schedule().dateAt(RunState.now()))
              .reason(cancellation.reason())
              .at(RunState.now())
              .build());
    }
    if (asked != null) {
      changes.recorded(asked);
    }
  }

  /**
   * A term switch's credit refunded leaves the balance with the cancellation's own record, so a
   * record written before it (a refund's) never changes what a retried cancellation computes.
   */
  private static Subscription withCreditRefunded(Subscription sub, Money credit) {
    Lifecycle lifecycle = sub.lifecycle();
    return sub.withLifecycle(
        lifecycle
            .withBalance(lifecycle.balance().plus(credit))
            .withReTermed(lifecycle.reTermed().withCreditRefunded(credit)));
  }

  /**
   * Settle-only mode: no reminder, charge or retry; payment events are acted on as they come and a
   * period without one is looked up on its settlement timeout, as on the normal path. Its outcome
   * is recorded with the subscription left CANCELLED (see {@link PaymentCollector}). Runs in this
   * same execution: a few timers, lookups and records per period, so no continue-as-new is needed.
   */
  void settle() {
    collector.keepOnlySettling();
    BillingSchedule schedule = run.current().schedule();
    while (true) {
      while (periods.hasEvents()) {
        collector.onEvent(periods.nextEvent());
      }
      if (periods.openPeriods().isEmpty()) {
        break;
      }
      Instant now = RunState.now();
      OpenPeriod due = periods.firstDue(schedule, now);
      if (due != null) {
        collector.serve(due);
        continue;
      }
      Instant until = PeriodCollection.actionAt(schedule, periods.next(schedule, now), now);
      run.phase(Phase.WAITING_FOR_SETTLEMENT);
      run.waitingUntil(until);
      Workflow.await(Duration.between(now, until), periods::hasEvents);
      run.waitingUntil(null);
    }
  }

  /**
   * The run has ended: refunds still come (a refund after the end restarts this workflow with the
   * record) and are applied; every other change is refused by its own rule, the subscription being
   * ended. Returns once every handler and notice is finished and no refund, nor an upgrade's charge
   * that may still settle, waits for an answer; or at once when a reactivation was applied.
   */
  void serveUntilDone() {
    run.phase(Phase.ENDED);
    run.waitingUntil(null);
    // Plan changes are refused once ended: only an upgrade already pending can keep the run open.
    boolean upgrades =
        run.requests.pendingUpgrade() != null && WorkflowChanges.upgradeAfterEndRefunded();
    while (true) {
      // A payment event that comes while the run waits to end is acted on, not dropped.
      while (periods.hasEvents()) {
        collector.onEvent(periods.nextEvent());
      }
      changes.dropUnrecorded();
      changes.applyAll(lifecycle);
      if (!run.current().status().isTerminal()) {
        // Reactivated: the run bills again instead of ending (see Reactivations).
        return;
      }
      if (Workflow.isEveryHandlerFinished()
          && run.notices.allDone()
          && !run.requests.waitsBeforeEnd(upgrades)
          && !periods.hasEvents()) {
        break;
      }
      // A refund without an answer keeps the run open for its re-sends, an upgrade charge for its
      // lookups (see RequestLog).
      Workflow.await(
          () ->
              (Workflow.isEveryHandlerFinished()
                      && run.notices.allDone()
                      && !run.requests.waitsBeforeEnd(upgrades))
                  || !changes.isEmpty()
                  || periods.hasEvents());
    }
    PendingUpgrade left = run.requests.pendingUpgrade();
    if (upgrades && left != null) {
      String detail =
          "the upgrade charge "
              + left.idempotencyKey()
              + " of "
              + left.amount()
              + " has no final outcome "
              + RequestLog.UPGRADE_SETTLEMENT_WINDOW.toDays()
              + " days after it was sent; the run ends with its key on the record: look it up at"
              + " the gateway and, if it succeeded, refund it";
      log.error(
          "UPGRADE CHARGE UNRESOLVED subscription {}: {}", run.current().subscriptionId(), detail);
      run.record(
          LifecycleChanges.note(
              run.current(),
              "upgrade-unresolved",
              HistoryEvent.PAYMENT_PENDING,
              Process.RECONCILIATION,
              SubscriptionChanges.SYSTEM_ACTOR,
              detail,
              RunState.now()));
      run.outcome(detail);
    }
  }
}
