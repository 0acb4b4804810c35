package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.RunState.Flow;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
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
  }

  @Override
  public SubscriptionState run(SubscriptionInput input) {
    if (run.current().cycle() < 1) {
      throw ApplicationFailure.newNonRetryableFailure(
          "subscription cycle must start at 1, got " + run.current().cycle(), "InvalidSubscription");
    }
    if (!run.recorded()) {
      recordCreation();
    }
    requests.armCarried();
    while (true) {
      if (run.current().status().isTerminal()) {
        return end();
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
    Workflow.continueAsNew(SubscriptionVisibility.continueAsNew(run.current()), new SubscriptionInput(
        run.current(), true, periods.carry(), null, requests.carry(run.current().cycle() - 1)));
    return run.snapshot(); // not reached: continueAsNew does not return
  }

  /** Bills the cycle the subscription is on; returns when the next run, a new plan or the end is due. */
  private Flow cycleRun() {
    long cycle = run.current().cycle();
    BillingSchedule schedule = run.current().schedule();
    LocalDate cancelsOn = run.current().lifecycle().cancelsOn();
    RunPlanner.Cycle times = new RunPlanner.Cycle(run.reminderAt(schedule, cycle), run.dueAt(schedule, cycle),
        cancelsOn == null ? null : schedule.startOfDay(cancelsOn));
    RunPlanner.Step step = RunPlanner.firstStep(cancelsOn != null, schedule.sendsReminders(),
        run.current().nextReminderDate() != null);
    while (true) {
      serveSafePoint();
      if (run.cancelling()) {
        cancelAndEnd();
        return Flow.ENDED;
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
      RunPlanner.Next plan = RunPlanner.cycle(now, step, times, new RunPlanner.Periods(due != null,
          stale != null, upcoming == null ? null : PeriodCollection.actionAt(schedule, upcoming, now),
          upcoming != null && upcoming.state() == State.PENDING_SETTLEMENT,
          RunPlanner.nextStaleAt(schedule, periods.unpaid())));
      switch (plan.action()) {
        case SERVE_PERIOD -> collector.serve(due);
        case MARK_STALE -> lifecycle.markStale(stale);
        case END_AT_PERIOD_END ->
            run.cancelAtPeriodEnd("ended at the end of the paid period (" + cancelsOn + ")");
        case REMIND -> {
          remind(cycle, times.dueAt());
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
        cancelAndEnd();
        return Flow.ENDED;
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
      RunPlanner.Next plan = RunPlanner.paused(now, schedule, run.current().lifecycle().pause(),
          run.current().cycle(), new RunPlanner.Periods(settling != null, stale != null,
              periods.nextSettlement(), false, RunPlanner.nextStaleAt(schedule, periods.unpaid())));
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
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.pause(run.current(), request, run.cancelling(), run.current().schedule().dateAt(RunState.now())));
    }
  }

  @Override
  public SubscriptionState pause(PauseRequest request) {
    return changes.submit(new QueuedChange.Pause(ChangeQueue.identified(request)));
  }

  @Override
  public void validateResume(ResumeRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.resume(run.current(), run.cancelling()));
    }
  }

  @Override
  public SubscriptionState resume(ResumeRequest request) {
    return changes.submit(new QueuedChange.Resume(
        ChangeQueue.identified(request == null ? new ResumeRequest(null) : request)));
  }

  @Override
  public void validateChangePlan(PlanChangeRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.plan(run.current(), request, run.cancelling(), requests.pendingUpgrade()));
    }
  }

  @Override
  public SubscriptionState changePlan(PlanChangeRequest request) {
    return changes.submit(new QueuedChange.Plan(ChangeQueue.identified(request)));
  }

  @Override
  public void validatePayNow(PayNowRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(lifecycle.payRefusal(run.cancelling()));
    }
  }

  @Override
  public SubscriptionState payNow(PayNowRequest request) {
    return changes.submit(new QueuedChange.PayNow(
        ChangeQueue.identified(request == null ? new PayNowRequest(null) : request)));
  }

  @Override
  public void validateWaivePeriod(WaiveRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.waive(run.current(), request, run.cancelling()));
    }
  }

  @Override
  public SubscriptionState waivePeriod(WaiveRequest request) {
    return changes.submit(new QueuedChange.Waive(ChangeQueue.identified(request)));
  }

  @Override
  public void validateRefundPeriod(RefundRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.refund(request));
    }
  }

  @Override
  public SubscriptionState refundPeriod(RefundRequest request) {
    return changes.submit(new QueuedChange.Refund(ChangeQueue.identified(request)));
  }

  @Override
  public void validateChangeBillingDay(BillingDayChange request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.billingDay(run.current(), request, run.cancelling()));
    }
  }

  @Override
  public SubscriptionState changeBillingDay(BillingDayChange request) {
    return changes.submit(new QueuedChange.BillingDay(ChangeQueue.identified(request)));
  }

  @Override
  public void validateChangePaymentMethod(PaymentMethodChange change) {
    if (!changes.isRepeat(ChangeQueue.identified(change))) {
      refuse(ChangeRules.paymentMethod(run.current(), change, run.cancelling()));
    }
  }

  @Override
  public SubscriptionState changePaymentMethod(PaymentMethodChange request) {
    PaymentMethodChange change = ChangeQueue.identified(request);
    AppliedRequest known = requests.find(change.requestId());
    if (known != null) {
      return changes.answer(known);
    }
    // Null when the workflow ended first (end() awaits every handler, so it can never wait for a
    // change that will not be recorded any more): that change is rejected, not lost silently.
    if (changes.enqueue(new QueuedChange.NewPaymentMethod(change)).get() == null) {
      throw UpdateRejections.transitionNotAllowed(
          "subscription was cancelled before the payment method change was recorded");
    }
    return changes.answer(requests.remember(change, AppliedRequest.Status.APPLIED,
        "payment method changed to " + change.paymentMethod().mask(), null));
  }

  @Override
  public void validateCancel(CancelRequest request) {
    if (!changes.isRepeat(ChangeQueue.identified(request))) {
      refuse(ChangeRules.cancel(run.current(), request, run.cancelling()));
    }
  }

  @Override
  public SubscriptionState cancel(CancelRequest asked) {
    CancelRequest request = ChangeQueue.identified(asked != null ? asked : new CancelRequest(null, null));
    if (request.atPeriodEnd()) {
      return changes.submit(new QueuedChange.CancelAtPeriodEnd(request));
    }
    AppliedRequest known = requests.find(request.requestId());
    if (known != null) {
      return changes.answer(known);
    }
    if (changes.enqueue(new QueuedChange.CancelNow(request)).get() == null) {
      throw UpdateRejections.transitionNotAllowed("subscription is already cancelled");
    }
    return changes.answer(requests.remember(request, AppliedRequest.Status.APPLIED, run.lastOutcome(), null));
  }

  private static void refuse(String refusal) {
    if (refusal != null) {
      throw UpdateRejections.transitionNotAllowed(refusal);
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
   * bounces, then applies the queued changes (unless a cancellation comes first). A new payment
   * method makes every period in dunning due at once, and has every RESOLVING one looked up at once
   * (and charged to the new method once the gateway says its last key moved no money).
   */
  private void serveSafePoint() {
    QueuedChange.NewPaymentMethod method = changes.paymentMethodChange();
    if (method != null) {
      // Until none is left: a change accepted while an earlier one is being recorded is recorded
      // too, so no accepted change is left waiting when a cancellation comes next.
      while (method != null) {
        run.phase(Phase.RECORDING_PAYMENT);
        run.record(CollectionChanges.paymentMethodChanged(run.current(), method.request(), RunState.now()));
        changes.recorded(method);
        run.outcome("payment method changed to " + run.current().paymentMethod().mask());
        method = changes.paymentMethodChange();
      }
      for (OpenPeriod period : periods.openPeriods()) {
        if (period.state() == State.DUNNING) {
          periods.put(period.withRetryNow(true));
        } else if (period.state() == State.RESOLVING) {
          // Its unknown key is asked about now; the new method is charged once it proves unpaid.
          periods.put(period.withRetryNow(true).withSettleBy(RunState.now()));
        }
      }
    }
    while (periods.hasEvents()) {
      collector.onEvent(periods.nextEvent());
    }
    if (run.pausePending() && !run.cancelling()) {
      lifecycle.pauseAfterDunning(run.takePauseAfterDunning());
    }
    while (run.notices.hasBounces() && !run.current().status().isTerminal()) {
      EmailBounce bounce = run.notices.nextBounce();
      EmailBounce known = run.current().lifecycle().emailBounce();
      if (known == null || !known.messageId().equals(bounce.messageId())) {
        run.record(LifecycleChanges.emailBounced(run.current(), bounce, RunState.now()));
        run.outcome("message " + bounce.messageId() + " bounced: " + bounce.reason());
      }
    }
    if (!run.cancelling()) {
      changes.applyAll(lifecycle);
    }
  }

  private void recordCreation() {
    run.phase(Phase.RECORDING_CREATION);
    run.write(SubscriptionChanges.creation(run.current(), createdBy, RunState.now()));
    run.markRecorded();
    run.outcome("subscription created (version " + run.current().version() + "); cycle "
        + run.current().cycle() + " due " + run.current().nextPaymentDate());
    log.info("subscription {} created at version {}", run.current().subscriptionId(), run.current().version());
    run.upsertSearchAttributes(true);
  }

  private void remind(long cycle, Instant dueAt) {
    Instant now = RunState.now();
    if (!now.isBefore(dueAt)) {
      run.outcome("cycle " + cycle + " reminder skipped: the payment was already due at " + dueAt);
      return;
    }
    run.phase(Phase.SENDING_REMINDER);
    Subscription current = run.current();
    String messageId = BillingIds.messageId(current.subscriptionId(), cycle, "reminder");
    RecordInput change = SubscriptionChanges.reminderSent(current, messageId, now);
    ReminderActivities reminders = Workflow.newActivityStub(ReminderActivities.class,
        BillingActivityOptions.sendPaymentReminder(Duration.between(now, dueAt)));
    try {
      SendReminderResult sent = reminders.sendReminder(new SendReminderInput(messageId,
          current.email(), current.sku(), current.amountDueFor(cycle), current.schedule().dueDate(cycle),
          current.paymentMethod().mask(), change));
      run.replace(RunState.landed(change.next(), sent.version()));
      run.outcome("cycle " + cycle + " reminder " + messageId + " sent for the payment due "
          + run.current().nextPaymentDate());
      if (sent.bounced()) {
        run.notices.bounced(new EmailBounce(RunState.now(), messageId, sent.bounceReason()));
        run.outcome("cycle " + cycle + " reminder " + messageId + " bounced: " + sent.bounceReason());
      }
    } catch (ActivityFailure e) {
      // The activity may have recorded the reminder before failing, so its version counts as used:
      // the next write skips past it (the store only requires a higher version), and a late
      // reminder record can then never overwrite the charge.
      run.replace(run.current().withVersion(change.next().version()));
      run.outcome("cycle " + cycle + " reminder failed (" + reasonOf(e) + "); billing anyway");
      log.warn("cycle {} reminder of {} failed; billing anyway", cycle, current.subscriptionId(), e);
    }
  }

  private void cancelAndEnd() {
    QueuedChange.CancelNow asked = changes.cancelAsked();
    if (run.cancellation() == null) {
      run.cancel(asked.request());
    }
    CancelRequest cancellation = run.cancellation();
    run.phase(Phase.CANCELLING);
    run.waitingUntil(null);
    if (cancellation.refundUnused()) {
      lifecycle.refundUnused(cancellation, SubscriptionChanges.actorOf(cancellation));
    }
    String balance = lifecycle.balanceLeftAtCancellation();
    if (balance != null) {
      // Never silent: the history entry, the outcome and the notice say what was left.
      String reason = cancellation.reason() == null ? balance : cancellation.reason() + "; " + balance;
      cancellation = new CancelRequest(reason, cancellation.requestedBy(), cancellation.atPeriodEnd(),
          cancellation.refundUnused(), cancellation.requestId());
      run.cancellation(cancellation);
      run.replace(lifecycle.withDebtWrittenOff());
    }
    Process process = run.cancelProcess();
    String actor = process == Process.API ? SubscriptionChanges.actorOf(cancellation)
        : SubscriptionChanges.SYSTEM_ACTOR;
    RecordInput change = process == Process.API
        ? SubscriptionChanges.cancellation(run.current(), cancellation, RunState.now())
        : SubscriptionChanges.cancellation(run.current(), cancellation.reason(), actor, process, RunState.now());
    long endingCycle = run.current().cycle();
    run.write(change);
    run.upsertSearchAttributes(false);
    run.outcome("cancelled by " + actor + (cancellation.reason() == null ? "" : ": " + cancellation.reason()));
    log.info("subscription {} cancelled at version {}", run.current().subscriptionId(), run.current().version());
    // The client that cancels is answered; the customer is told too when money was left behind.
    if (process != Process.API || run.cancelAtPeriodEnd() || balance != null) {
      Subscription ended = run.current();
      run.notice(new NotifyCustomerInput(NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED,
          BillingIds.messageId(ended.subscriptionId(), endingCycle, "cancelled"),
          ended.accountId(), ended.subscriptionId(), endingCycle, ended.email(), ended.sku(),
          ended.price(), ended.schedule().dateAt(RunState.now()), ended.paymentMethod().mask(),
          cancellation.reason(), ended.schedule().timeZone(), RunState.now(), ended.locale()));
    }
    if (asked != null) {
      changes.recorded(asked);
    }
    // Money already asked for may still move: the run stays open, settle-only, until it is known.
    if (periods.awaitingOutcome()) {
      settleThenEnd();
    } else {
      end();
    }
  }

  /**
   * Settle-only mode: no reminder, charge or retry; payment events are acted on as they come and a
   * period without one is looked up on its settlement timeout, as on the normal path. Its outcome is
   * recorded with the subscription left CANCELLED (see {@link PaymentCollector}). Runs in this same
   * execution: a few timers, lookups and records per period, so no continue-as-new is needed.
   */
  private void settleThenEnd() {
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
    end();
  }

  private SubscriptionState end() {
    run.phase(Phase.ENDED);
    run.waitingUntil(null);
    changes.dropUnrecorded();
    // Refunds still come (a refund after the end restarts this workflow with the record): they are
    // applied here; every other change is refused by its own rule, the subscription being ended.
    while (true) {
      changes.applyAll(lifecycle);
      if (Workflow.isEveryHandlerFinished() && run.notices.allDone() && !requests.waitsBeforeEnd()) {
        break;
      }
      // A refund without an answer keeps the run open for its re-sends (see RequestLog).
      Workflow.await(() -> (Workflow.isEveryHandlerFinished() && run.notices.allDone()
          && !requests.waitsBeforeEnd()) || !changes.isEmpty());
    }
    return run.snapshot();
  }

  private void sleepUntil(Phase waitingPhase, Instant until) {
    run.phase(waitingPhase);
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
    return run.cancelling() || periods.hasEvents() || !changes.isEmpty() || run.pausePending()
        || run.notices.hasBounces();
  }

  private boolean readyToContinue() {
    return Workflow.isEveryHandlerFinished() && run.notices.allDone();
  }

  private static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal ? temporal.getOriginalMessage() : cause.getMessage();
  }
}
