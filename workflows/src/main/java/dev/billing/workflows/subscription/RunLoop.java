package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Process;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.subscription.RunState.Flow;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The main workflow thread's loop within a run: plans the next step ({@link RunPlanner}), serves
 * the queued events and changes at each safe point, sleeps until the next step is due or something
 * wakes it, and cancels when asked. The only writer of the subscription.
 */
final class RunLoop {
  private final RunState run;
  private final PeriodCollection periods;
  private final ChangeQueue changes;
  private final PaymentCollector collector;
  private final LifecycleOperations lifecycle;
  private final Cancellation cancellation;

  RunLoop(
      RunState run,
      PaymentCollector collector,
      LifecycleOperations lifecycle,
      Cancellation cancellation) {
    this.run = run;
    this.periods = run.periods;
    this.changes = run.changes;
    this.collector = collector;
    this.lifecycle = lifecycle;
    this.cancellation = cancellation;
  }

  /**
   * Bills the cycle the subscription is on; returns when the next run, a new plan or the end is
   * due.
   */
  Flow cycleRun() {
    long cycle = run.current().cycle();
    BillingSchedule schedule = run.current().schedule();
    LocalDate cancelsOn = run.current().lifecycle().cancelsOn();
    RunPlanner.Cycle times =
        new RunPlanner.Cycle(
            run.reminderAt(schedule, cycle),
            run.dueAt(schedule, cycle),
            cancelsOn == null ? null : schedule.startOfDay(cancelsOn));
    RunPlanner.Step step =
        RunPlanner.firstStep(
            cancelsOn != null, schedule.sendsReminders(), run.current().nextReminderDate() != null);
    while (true) {
      serveSafePoint();
      if (run.cancelling()) {
        return cancelAndEnd();
      }
      if (run.next() != null) {
        return run.next();
      }
      if (historyTooLong()) {
        return Flow.NEXT_RUN;
      }
      Instant now = RunState.now();
      OpenPeriod due = periods.firstDue(schedule, now);
      UnpaidPeriod stale = RunPlanner.firstStale(schedule, periods.unpaid(), now);
      OpenPeriod upcoming = periods.next(schedule, now);
      RunPlanner.Next plan =
          RunPlanner.cycle(
              now,
              step,
              times,
              new RunPlanner.Periods(
                  due != null,
                  stale != null,
                  upcoming == null ? null : PeriodCollection.actionAt(schedule, upcoming, now),
                  upcoming != null && upcoming.state() == State.PENDING_SETTLEMENT,
                  RunPlanner.nextStaleAt(schedule, periods.unpaid())),
              run.firstPaymentOpen() || run.termSwitchOpen());
      switch (plan.action()) {
        case SERVE_PERIOD -> collector.serve(due);
        case MARK_STALE -> lifecycle.markStale(stale);
        case END_AT_PERIOD_END ->
            run.cancelAtPeriodEnd("ended at the end of the paid period (" + cancelsOn + ")");
        case REMIND -> {
          Reminders.remind(run, cycle, times.dueAt());
          step = RunPlanner.Step.CHARGE;
        }
        case CHARGE -> {
          lifecycle.applyPendingPlan(cycle);
          collector.firstAttempt(cycle);
          step = RunPlanner.Step.DONE;
        }
        case FINISH -> {
          // Notices must not be abandoned by continue-as-new, and a handler waiting for the main
          // thread (cancel, a payment method change) wakes it.
          if (readyToContinue()) {
            return Flow.NEXT_RUN;
          }
          Workflow.await(() -> readyToContinue() || wakeUp());
        }
        default -> sleepUntil(plan.phase(), plan.until());
      }
    }
  }

  /**
   * While paused: no reminder, no charge, no dunning retry. A period due meanwhile is recorded
   * PAUSED_SKIPPED (one per run); a pause with an end resumes by itself in time for the reminder of
   * the first payment after it; charges made before the pause still settle.
   */
  Flow pausedRun() {
    BillingSchedule schedule = run.current().schedule();
    while (true) {
      serveSafePoint();
      if (run.cancelling()) {
        return cancelAndEnd();
      }
      if (run.next() == Flow.REPLAN) {
        return Flow.REPLAN;
      }
      if (run.next() == Flow.NEXT_RUN) {
        if (readyToContinue()) {
          return Flow.NEXT_RUN;
        }
        Workflow.await(() -> readyToContinue() || wakeUp());
        continue;
      }
      if (historyTooLong()) {
        return Flow.NEXT_RUN;
      }
      Instant now = RunState.now();
      OpenPeriod settling = periods.firstSettlementDue(now);
      UnpaidPeriod stale = RunPlanner.firstStale(schedule, periods.unpaid(), now);
      RunPlanner.Next plan =
          RunPlanner.paused(
              now,
              schedule,
              run.current().lifecycle().pause(),
              run.current().cycle(),
              new RunPlanner.Periods(
                  settling != null,
                  stale != null,
                  periods.nextSettlement(),
                  false,
                  RunPlanner.nextStaleAt(schedule, periods.unpaid())));
      switch (plan.action()) {
        case SERVE_PERIOD -> collector.serve(settling);
        case MARK_STALE -> lifecycle.markStale(stale);
        case RESUME -> lifecycle.resume(SubscriptionChanges.SYSTEM_ACTOR, Process.PAUSE);
        case SKIP -> lifecycle.skipWhilePaused();
        default -> {
          run.phase(Phase.PAUSED);
          if (plan.until() == null) {
            Workflow.await(this::wakeUp);
          } else {
            sleepUntil(Phase.PAUSED, plan.until());
          }
        }
      }
    }
  }

  /**
   * Temporal suggests continuing as new (a long dunning or pause, many events): the state needed to
   * go on is all in the subscription and the carried periods, so a new run picks up mid-cycle.
   */
  private boolean historyTooLong() {
    return Workflow.getInfo().isContinueAsNewSuggested() && readyToContinue();
  }

  /**
   * Records new payment methods, acts on queued payment events, a pause dunning asked for and
   * bounces, then applies the queued changes (unless a cancellation comes first).
   */
  private void serveSafePoint() {
    collector.recordNewPaymentMethods(changes);
    while (periods.hasEvents()) {
      collector.onEvent(periods.nextEvent());
    }
    if (run.pausePending() && !run.cancelling()) {
      lifecycle.pauseAfterDunning(run.takePauseAfterDunning());
    }
    run.recordBounces();
    if (!run.cancelling()) {
      changes.applyAll(lifecycle);
    }
  }

  /**
   * Cancels (see {@link Cancellation}); money already asked for may still move, so the run stays
   * open, settle-only, until it is known; then it ends, unless a reactivation came first.
   */
  private Flow cancelAndEnd() {
    cancellation.cancel();
    if (periods.awaitingOutcome()) {
      cancellation.settle();
    }
    end();
    // Reactivated before the run ended: plan the cycle it bills again from.
    return run.current().status().isTerminal() ? Flow.ENDED : Flow.REPLAN;
  }

  /** See {@link Cancellation#serveUntilDone}. */
  SubscriptionState end() {
    cancellation.serveUntilDone();
    return run.snapshot();
  }

  private void sleepUntil(Phase waitingPhase, Instant until) {
    run.phase(waitingPhase);
    if (until == null) {
      // Only an event or a change can move it on (a held cycle whose period waits for one).
      Workflow.await(this::wakeUp);
      return;
    }
    Duration remaining = Duration.between(RunState.now(), until);
    if (remaining.isNegative() || remaining.isZero()) {
      return;
    }
    run.waitingUntil(until);
    Workflow.await(remaining, this::wakeUp);
    run.waitingUntil(null);
  }

  /** Something only the main thread can do has come up while it waits. */
  private boolean wakeUp() {
    return run.cancelling()
        || periods.hasEvents()
        || !changes.isEmpty()
        || run.pausePending()
        || run.notices.hasBounces();
  }

  private boolean readyToContinue() {
    return Workflow.isEveryHandlerFinished() && run.notices.allDone();
  }
}
