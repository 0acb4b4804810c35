package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Process;
import dev.billing.workflows.BillingDayChange;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.CustomerChange;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.PaymentMethodChange;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ReactivateRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.SubscriptionVisibility;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.UpdateRequest;
import dev.billing.workflows.WaiveRequest;
import dev.billing.workflows.subscription.RunState.Flow;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Bills one cycle per run, then continues as new. Only the main workflow thread writes the
 * subscription; the update handlers validate, queue their change ({@link ChangeQueue}) and wait
 * until the main thread has applied it at its next safe point (while sleeping, or after a step has
 * completed), so nothing ever lands between a charge and its record.
 *
 * <p>Periods that are not settled when the run's own cycle has been charged (in dunning, or a bank
 * debit waiting to settle) travel to the next run in {@link SubscriptionInput#collections()}. Each
 * run serves them on their own dates beside its own cycle ({@link RunPlanner}).
 */
public class SubscriptionWorkflowImpl implements SubscriptionWorkflow {

  private static final Logger log = Workflow.getLogger(SubscriptionWorkflowImpl.class);

  /** The principal that asked for the subscription; only on the first run. */
  private final String createdBy;

  private final RunState run;
  private final PeriodCollection periods;
  private final RequestLog requests;
  private final ChangeQueue changes;
  private final PaymentCollector collector;
  private final LifecycleOperations lifecycle;
  private final Cancellation cancellation;

  /** Runs before any handler, so updates, signals and queries always see the subscription. */
  @WorkflowInit
  public SubscriptionWorkflowImpl(SubscriptionInput input) {
    createdBy = input.requestedBy();
    run = new RunState(input);
    periods = run.periods;
    requests = run.requests;
    changes = run.changes;
    Gateway gateway = new Gateway();
    collector = new PaymentCollector(run, gateway);
    lifecycle = new LifecycleOperations(run, gateway, collector);
    cancellation = new Cancellation(run, lifecycle, collector);
  }

  @Override
  public SubscriptionState run(SubscriptionInput input) {
    if (run.current().cycle() < 1) {
      throw ApplicationFailure.newNonRetryableFailure(
          "subscription cycle must start at 1, got " + run.current().cycle(),
          "InvalidSubscription");
    }
    if (!run.recorded()) {
      run.recordCreation(createdBy);
    }
    requests.armCarried();
    while (true) {
      if (run.current().status().isTerminal()) {
        // An ended subscription's run (see SubscriptionRestart#afterEnd): money that moved after
        // the end is recorded before it ends again.
        cancellation.settle();
        end();
        if (run.current().status().isTerminal()) {
          return run.snapshot();
        }
        // Reactivated while it waited to end: it bills again, planned in this same run.
        continue;
      }
      run.clearNext();
      Flow flow = run.current().lifecycle().pause() != null ? pausedRun() : cycleRun();
      if (flow == Flow.ENDED) {
        return run.snapshot();
      }
      if (flow == Flow.NEXT_RUN) {
        break;
      }
      // REPLAN: a change moved this run's timers; plan again in this same run, so an update that
      // follows at once never meets a run that is closing.
    }
    // The next run's search attributes (next payment date) and memo travel in this command.
    Workflow.continueAsNew(
        SubscriptionVisibility.continueAsNew(run.current()),
        new SubscriptionInput(run.current(), true, periods.carry(), null, requests.carry()));
    return run.snapshot(); // not reached: continueAsNew does not return
  }

  /**
   * Bills the cycle the subscription is on; returns when the next run, a new plan or the end is
   * due.
   */
  private Flow cycleRun() {
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
              run.firstPaymentOpen());
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
  private Flow pausedRun() {
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

  // ---- Update handlers: validate, queue, wait for the main thread.

  @Override
  public void validatePause(PauseRequest request) {
    validate(
        ChangeQueue.identified(request),
        () ->
            ChangeRules.pause(
                run.current(),
                request,
                run.cancelling(),
                run.current().schedule().dateAt(RunState.now()),
                run.firstPaymentOpen()));
  }

  @Override
  public SubscriptionState pause(PauseRequest request) {
    return changes.submit(new QueuedChange.Pause(ChangeQueue.identified(request)));
  }

  @Override
  public void validateResume(ResumeRequest request) {
    validate(
        ChangeQueue.identified(request), () -> ChangeRules.resume(run.current(), run.cancelling()));
  }

  @Override
  public SubscriptionState resume(ResumeRequest request) {
    return changes.submit(
        new QueuedChange.Resume(
            ChangeQueue.identified(request == null ? new ResumeRequest(null) : request)));
  }

  @Override
  public void validateChangePlan(PlanChangeRequest request) {
    validate(
        ChangeQueue.identified(request),
        () ->
            ChangeRules.plan(run.current(), request, run.cancelling(), requests.pendingUpgrade()));
  }

  @Override
  public SubscriptionState changePlan(PlanChangeRequest request) {
    return changes.submit(new QueuedChange.Plan(ChangeQueue.identified(request)));
  }

  @Override
  public void validatePayNow(PayNowRequest request) {
    validate(ChangeQueue.identified(request), () -> lifecycle.payRefusal(run.cancelling()));
  }

  @Override
  public SubscriptionState payNow(PayNowRequest request) {
    return changes.submit(
        new QueuedChange.PayNow(
            ChangeQueue.identified(request == null ? new PayNowRequest(null) : request)));
  }

  @Override
  public void validateWaivePeriod(WaiveRequest request) {
    validate(
        ChangeQueue.identified(request),
        () -> ChangeRules.waive(run.current(), request, run.cancelling()));
  }

  @Override
  public SubscriptionState waivePeriod(WaiveRequest request) {
    return changes.submit(new QueuedChange.Waive(ChangeQueue.identified(request)));
  }

  @Override
  public void validateRefundPeriod(RefundRequest request) {
    validate(ChangeQueue.identified(request), () -> ChangeRules.refund(request));
  }

  @Override
  public SubscriptionState refundPeriod(RefundRequest request) {
    return changes.submit(new QueuedChange.Refund(ChangeQueue.identified(request)));
  }

  @Override
  public void validateChangeBillingDay(BillingDayChange request) {
    validate(
        ChangeQueue.identified(request),
        () -> ChangeRules.billingDay(run.current(), request, run.cancelling()));
  }

  @Override
  public SubscriptionState changeBillingDay(BillingDayChange request) {
    return changes.submit(new QueuedChange.BillingDay(ChangeQueue.identified(request)));
  }

  @Override
  public void validateChangeCustomer(CustomerChange change) {
    validate(
        ChangeQueue.identified(change),
        () -> ChangeRules.customer(run.current(), change, run.cancelling()));
  }

  @Override
  public SubscriptionState changeCustomer(CustomerChange change) {
    return changes.submit(new QueuedChange.Customer(ChangeQueue.identified(change)));
  }

  @Override
  public void validateReactivate(ReactivateRequest request) {
    validate(ChangeQueue.identified(request), lifecycle::reactivateRefusal);
  }

  @Override
  public SubscriptionState reactivate(ReactivateRequest request) {
    return changes.submit(
        new QueuedChange.Reactivate(
            ChangeQueue.identified(
                request == null ? new ReactivateRequest(null, null, null) : request)));
  }

  @Override
  public void validateChangePaymentMethod(PaymentMethodChange change) {
    validate(
        ChangeQueue.identified(change),
        () -> ChangeRules.paymentMethod(run.current(), change, run.cancelling()));
  }

  @Override
  public SubscriptionState changePaymentMethod(PaymentMethodChange request) {
    PaymentMethodChange change = ChangeQueue.identified(request);
    return changes.awaitRecorded(
        new QueuedChange.NewPaymentMethod(change),
        () -> "payment method changed to " + change.paymentMethod().mask(),
        "subscription was cancelled before the payment method change was recorded");
  }

  @Override
  public void validateCancel(CancelRequest request) {
    validate(
        ChangeQueue.identified(request),
        () -> ChangeRules.cancel(run.current(), request, run.cancelling()));
  }

  @Override
  public SubscriptionState cancel(CancelRequest asked) {
    CancelRequest request =
        ChangeQueue.identified(asked != null ? asked : new CancelRequest(null, null));
    if (request.atPeriodEnd()) {
      return changes.submit(new QueuedChange.CancelAtPeriodEnd(request));
    }
    return changes.awaitRecorded(
        new QueuedChange.CancelNow(request), run::lastOutcome, "subscription is already cancelled");
  }

  /**
   * A repeat of a request taken on is let through (its handler answers it as the first time);
   * otherwise the rule refuses before the update enters history.
   */
  private void validate(UpdateRequest<?> request, Supplier<String> rule) {
    if (!changes.isRepeat(request)) {
      String refusal = rule.get();
      if (refusal != null) {
        throw UpdateRejections.transitionNotAllowed(refusal);
      }
    }
  }

  @Override
  public SubscriptionState state() {
    return run.snapshot();
  }

  @Override
  public SubscriptionState created() {
    Workflow.await(run::recorded);
    return run.snapshot();
  }

  @Override
  public void paymentEvent(PaymentEvent event) {
    if (event == null) {
      return;
    }
    // Only de-duplicated and queued here: what it means is decided on the main thread at a safe
    // point, where the state is never half-way through a record.
    String ignored = periods.receive(event);
    if (ignored != null) {
      log.info("payment event ignored: {}", ignored);
    }
  }

  // ---- The main thread's steps.

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
  private SubscriptionState end() {
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
