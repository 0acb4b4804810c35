package dev.billing.workflows;

import dev.billing.domain.PaymentEvent;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DueInstants;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.Pause;
import dev.billing.domain.Process;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Subscription;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInit;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * Bills one cycle per run, then continues as new. Only the main workflow thread writes the
 * subscription; the update handlers (cancel, changePaymentMethod) just ask and wait until the main
 * thread has recorded their change at its next safe point (while sleeping, or after a step has
 * completed), so nothing ever lands between a charge and its record.
 *
 * <p>Periods that are not settled when the run's own cycle has been charged (in dunning, or a bank
 * debit waiting to settle) travel to the next run in {@link SubscriptionInput#collections()}. Each
 * run serves them on their own dates beside its own cycle: whatever falls due first happens first;
 * on a tie an earlier period's retry goes before this cycle's reminder and charge. So the next
 * cycle's reminder and charge are never skipped or moved by dunning; they can only wait for a step
 * already under way.
 */
public class SubscriptionWorkflowImpl implements SubscriptionWorkflow {

  private static final Logger log = Workflow.getLogger(SubscriptionWorkflowImpl.class);

  private final RecordActivities records =
      Workflow.newActivityStub(RecordActivities.class, BillingActivityOptions.RECORD_CHANGE);

  private Subscription current;
  private boolean recorded;
  /** The principal that asked for the subscription; only on the first run. */
  private final String createdBy;
  private Phase phase;
  private Instant waitingUntil;
  private String lastOutcome;
  private CancelRequest cancelRequest;
  private Process cancelProcess = Process.API;
  private boolean cancelRecorded;
  /** Set when the workflow ends: handlers still waiting for the main thread give up. */
  private boolean ending;
  private final List<PaymentMethodChange> methodChanges = new ArrayList<>();
  private int methodChangesAccepted;
  private int methodChangesRecorded;
  private final CustomerNotices notices = new CustomerNotices();
  private final PeriodCollection periods;
  private final PaymentCollector collector;
  private final LifecycleOperations lifecycle;
  private final ChangeQueue changes;
  private final RequestLog requests;
  /** Set when the current plan ends: a new plan in this run, or the next run. */
  private Flow next;
  /** Set when dunning ended with PAUSE: the pause is recorded at the next safe point. */
  private String pauseAfterDunning;
  /** The cancellation is the end of a cancellation at period end, not a new request. */
  private boolean cancelAtPeriodEnd;


  /** How a plan of the run ended. */
  private enum Flow {
    /** A change moved the timers (pause, resume, billing day, cancel at period end): plan again. */
    REPLAN,
    /** The cycle is done (or a paused period was skipped): continue as new. */
    NEXT_RUN,
    /** The subscription ended. */
    ENDED
  }

  /** Runs before any handler, so updates, signals and queries always see the subscription. */
  @WorkflowInit
  public SubscriptionWorkflowImpl(SubscriptionInput input) {
    current = input.subscription();
    recorded = input.recorded();
    createdBy = input.requestedBy();
    phase = recorded ? Phase.WAITING_FOR_REMINDER : Phase.RECORDING_CREATION;
    lastOutcome = recorded
        ? "cycle " + current.cycle() + " is next; subscription is " + current.status()
        : "creation requested";
    periods = new PeriodCollection(current.subscriptionId(), input.collections());
    collector = new PaymentCollector(new CollectorLedger(), periods);
    requests = new RequestLog(input.requests());
    lifecycle = new LifecycleOperations(new LifecycleHost(), periods, collector, requests);
    changes = new ChangeQueue(lifecycle, requests, this::snapshot);
  }

  @Override
  public SubscriptionState run(SubscriptionInput input) {
    if (current.cycle() < 1) {
      throw ApplicationFailure.newNonRetryableFailure(
          "subscription cycle must start at 1, got " + current.cycle(), "InvalidSubscription");
    }
    if (!recorded) {
      recordCreation();
    }
    requests.armCarried();
    while (true) {
      if (current.status().isTerminal()) {
        return end();
      }
      next = null;
      Flow flow = current.lifecycle().pause() != null ? pausedRun() : cycleRun();
      if (flow == Flow.ENDED) {
        return snapshot();
      }
      if (flow == Flow.NEXT_RUN) {
        break;
      }
      // REPLAN: a change moved this run's timers; plan again in this same run, so an update that
      // follows at once never meets a run that is closing.
    }
    // The next run's search attributes (next payment date) and memo travel in this command.
    Workflow.continueAsNew(SubscriptionVisibility.continueAsNew(current),
        new SubscriptionInput(current, true, periods.carry(), null, requests.carry(current.cycle() - 1)));
    return snapshot(); // not reached: continueAsNew does not return
  }

  /** Bills the cycle the subscription is on; returns when the next run, a new plan or the end is due. */
  private Flow cycleRun() {
    long cycle = current.cycle();
    BillingSchedule schedule = current.schedule();
    boolean spread = hasDueWindow(schedule);
    LocalDate cancelsOn = current.lifecycle().cancelsOn();
    RunPlanner.Cycle times = new RunPlanner.Cycle(reminderAt(schedule, cycle, spread),
        spread ? DueInstants.dueAt(schedule, cycle, current.subscriptionId()) : schedule.dueAt(cycle),
        cancelsOn == null ? null : schedule.startOfDay(cancelsOn));
    RunPlanner.Step step = RunPlanner.firstStep(cancelsOn != null, schedule.sendsReminders(),
        current.nextReminderDate() != null);
    while (true) {
      serveSafePoint();
      if (cancelRequested()) {
        cancelAndEnd();
        return Flow.ENDED;
      }
      if (next != null) {
        return next;
      }
      if (historyTooLong()) {
        return Flow.NEXT_RUN;
      }
      Instant now = now();
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
        case END_AT_PERIOD_END -> {
          cancelAtPeriodEnd = true;
          cancelRequest = new CancelRequest("ended at the end of the paid period (" + cancelsOn + ")",
              SubscriptionChanges.SYSTEM_ACTOR);
        }
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
    BillingSchedule schedule = current.schedule();
    while (true) {
      serveSafePoint();
      if (cancelRequested()) {
        cancelAndEnd();
        return Flow.ENDED;
      }
      if (next == Flow.REPLAN) {
        return next;
      }
      if (next == Flow.NEXT_RUN) {
        if (readyToContinue()) {
          return next;
        }
        Workflow.await(() -> readyToContinue() || wakeUp());
        continue;
      }
      if (historyTooLong()) {
        return Flow.NEXT_RUN;
      }
      Instant now = now();
      OpenPeriod settling = periods.firstSettlementDue(now);
      UnpaidPeriod stale = RunPlanner.firstStale(schedule, periods.unpaid(), now);
      RunPlanner.Next plan = RunPlanner.paused(now, schedule, current.lifecycle().pause(), current.cycle(),
          new RunPlanner.Periods(settling != null, stale != null, periods.nextSettlement(), false,
              RunPlanner.nextStaleAt(schedule, periods.unpaid())));
      switch (plan.action()) {
        case SERVE_PERIOD -> collector.serve(settling);
        case MARK_STALE -> lifecycle.markStale(stale);
        case RESUME -> lifecycle.resume(SubscriptionChanges.SYSTEM_ACTOR, Process.PAUSE);
        case SKIP -> lifecycle.skipWhilePaused();
        default -> {
          phase = Phase.PAUSED;
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

  @Override
  public void validatePause(PauseRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.pauseRefusal(request, cancelRequested()));
  }

  @Override
  public SubscriptionState pause(PauseRequest request) {
    return changes.submit(ChangeQueue.identified(request));
  }

  @Override
  public void validateResume(ResumeRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.resumeRefusal(cancelRequested()));
  }

  @Override
  public SubscriptionState resume(ResumeRequest request) {
    return changes.submit(ChangeQueue.identified(request == null ? new ResumeRequest(null) : request));
  }

  @Override
  public void validateChangePlan(PlanChangeRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.planRefusal(request, cancelRequested()));
  }

  @Override
  public SubscriptionState changePlan(PlanChangeRequest request) {
    return changes.submit(ChangeQueue.identified(request));
  }

  @Override
  public void validatePayNow(PayNowRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.payRefusal(cancelRequested()));
  }

  @Override
  public SubscriptionState payNow(PayNowRequest request) {
    return changes.submit(ChangeQueue.identified(request == null ? new PayNowRequest(null) : request));
  }

  @Override
  public void validateWaivePeriod(WaiveRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.waiveRefusal(request, cancelRequested()));
  }

  @Override
  public SubscriptionState waivePeriod(WaiveRequest request) {
    return changes.submit(ChangeQueue.identified(request));
  }

  @Override
  public void validateRefundPeriod(RefundRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(ChangeRules.refund(request));
  }

  @Override
  public SubscriptionState refundPeriod(RefundRequest request) {
    return changes.submit(ChangeQueue.identified(request));
  }

  @Override
  public void validateChangeBillingDay(BillingDayChange request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(lifecycle.billingDayRefusal(request, cancelRequested()));
  }

  @Override
  public SubscriptionState changeBillingDay(BillingDayChange request) {
    return changes.submit(ChangeQueue.identified(request));
  }

  private static void refuse(String refusal) {
    if (refusal != null) {
      throw UpdateRejections.transitionNotAllowed(refusal);
    }
  }

  @Override
  public SubscriptionState state() {
    return snapshot();
  }

  @Override
  public SubscriptionState created() {
    Workflow.await(() -> recorded);
    return snapshot();
  }

  @Override
  public void validateChangePaymentMethod(PaymentMethodChange change) {
    if (changes.isRepeat(ChangeQueue.identified(change))) {
      return;
    }
    refuse(ChangeRules.paymentMethod(current, change, cancelRequested()));
  }

  @Override
  public SubscriptionState changePaymentMethod(PaymentMethodChange request) {
    PaymentMethodChange change = ChangeQueue.identified(request);
    AppliedRequest known = requests.find(change.requestId());
    if (known != null) {
      return changes.answer(known);
    }
    int ticket = ++methodChangesAccepted;
    methodChanges.add(change);
    // Also wakes when the workflow ends, so end() (which awaits every handler) can never wait for a
    // change that will not be recorded any more: that change is rejected, not lost silently.
    Workflow.await(() -> methodChangesRecorded >= ticket || ending);
    if (methodChangesRecorded < ticket) {
      throw UpdateRejections.transitionNotAllowed(
          "subscription was cancelled before the payment method change was recorded");
    }
    return changes.answer(requests.remember(change, AppliedRequest.Status.APPLIED,
        "payment method changed to " + change.paymentMethod().mask(), null));
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

  @Override
  public void validateCancel(CancelRequest request) {
    if (changes.isRepeat(ChangeQueue.identified(request))) {
      return;
    }
    refuse(ChangeRules.cancel(current, request, cancelRequested()));
  }

  @Override
  public SubscriptionState cancel(CancelRequest asked) {
    CancelRequest request = ChangeQueue.identified(asked != null ? asked : new CancelRequest(null, null));
    if (request.atPeriodEnd()) {
      return changes.submit(request);
    }
    AppliedRequest known = requests.find(request.requestId());
    if (known != null) {
      return changes.answer(known);
    }
    cancelRequest = request;
    Workflow.await(() -> cancelRecorded);
    return changes.answer(requests.remember(request, AppliedRequest.Status.APPLIED, lastOutcome, null));
  }

  /**
   * Records what handlers asked for and acts on queued payment events. A new payment method makes
   * every period in dunning due at once, and has every RESOLVING one looked up at once (and
   * charged to the new method once the gateway says its last key moved no money).
   */
  private void serveSafePoint() {
    if (!methodChanges.isEmpty()) {
      // Until empty: a change accepted while an earlier one is being recorded is recorded too,
      // so no accepted change is left waiting when a cancellation comes next.
      while (!methodChanges.isEmpty()) {
        PaymentMethodChange change = methodChanges.get(0);
        phase = Phase.RECORDING_PAYMENT;
        ledgerRecord(CollectionChanges.paymentMethodChanged(current, change, now()));
        methodChanges.remove(0);
        methodChangesRecorded++;
        lastOutcome = "payment method changed to " + current.paymentMethod().mask();
      }
      for (OpenPeriod period : periods.openPeriods()) {
        if (period.state() == State.DUNNING) {
          periods.put(period.withRetryNow(true));
        } else if (period.state() == State.RESOLVING) {
          // Its unknown key is asked about now; the new method is charged once it proves unpaid.
          periods.put(period.withRetryNow(true).withSettleBy(now()));
        }
      }
    }
    while (periods.hasEvents()) {
      PaymentEvent event = periods.nextEvent();
      collector.onEvent(event);
    }
    if (pauseAfterDunning != null && !cancelRequested()) {
      String reason = pauseAfterDunning;
      pauseAfterDunning = null;
      lifecycle.pauseAfterDunning(reason);
    }
    while (notices.hasBounces() && !current.status().isTerminal()) {
      EmailBounce bounce = notices.nextBounce();
      EmailBounce known = current.lifecycle().emailBounce();
      if (known == null || !known.messageId().equals(bounce.messageId())) {
        ledgerRecord(LifecycleChanges.emailBounced(current, bounce, now()));
        lastOutcome = "message " + bounce.messageId() + " bounced: " + bounce.reason();
      }
    }
    if (!cancelRequested()) {
      changes.applyAll();
    }
  }

  private void recordCreation() {
    phase = Phase.RECORDING_CREATION;
    record(SubscriptionChanges.creation(current, createdBy, now()));
    recorded = true;
    lastOutcome = "subscription created (version " + current.version() + "); cycle "
        + current.cycle() + " due " + current.nextPaymentDate();
    log.info("subscription {} created at version {}", current.subscriptionId(), current.version());
    upsertSearchAttributes(true);
  }

  private void remind(long cycle, Instant dueAt) {
    Instant now = now();
    if (!now.isBefore(dueAt)) {
      lastOutcome = "cycle " + cycle + " reminder skipped: the payment was already due at " + dueAt;
      return;
    }
    phase = Phase.SENDING_REMINDER;
    String messageId = BillingIds.messageId(current.subscriptionId(), cycle, "reminder");
    RecordInput change = SubscriptionChanges.reminderSent(current, messageId, now);
    ReminderActivities reminders = Workflow.newActivityStub(ReminderActivities.class,
        BillingActivityOptions.sendPaymentReminder(Duration.between(now, dueAt)));
    try {
      SendReminderResult sent = reminders.sendReminder(new SendReminderInput(messageId,
          current.email(), current.sku(), current.amountDueFor(cycle), current.schedule().dueDate(cycle),
          current.paymentMethod().mask(), change));
      current = landed(change.next(), sent.version());
      lastOutcome = "cycle " + cycle + " reminder " + messageId + " sent for the payment due "
          + current.nextPaymentDate();
      if (sent.bounced()) {
        notices.bounced(new EmailBounce(now(), messageId, sent.bounceReason()));
        lastOutcome = "cycle " + cycle + " reminder " + messageId + " bounced: " + sent.bounceReason();
      }
    } catch (ActivityFailure e) {
      // The activity may have recorded the reminder before failing, so its version counts as used:
      // the next write skips past it (the store only requires a higher version), and a late
      // reminder record can then never overwrite the charge.
      current = current.withVersion(change.next().version());
      lastOutcome = "cycle " + cycle + " reminder failed (" + reasonOf(e) + "); billing anyway";
      log.warn("cycle {} reminder of {} failed; billing anyway", cycle, current.subscriptionId(), e);
    }
  }

  private SubscriptionState cancelAndEnd() {
    phase = Phase.CANCELLING;
    waitingUntil = null;
    if (cancelRequest.refundUnused()) {
      lifecycle.refundUnused(cancelRequest, SubscriptionChanges.actorOf(cancelRequest));
    }
    String balance = lifecycle.balanceLeftAtCancellation();
    if (balance != null) {
      // Never silent: the history entry, the outcome and the notice say what was left.
      String reason = cancelRequest.reason() == null ? balance : cancelRequest.reason() + "; " + balance;
      cancelRequest = new CancelRequest(reason, cancelRequest.requestedBy(), cancelRequest.atPeriodEnd(),
          cancelRequest.refundUnused(), cancelRequest.requestId());
      current = lifecycle.withDebtWrittenOff();
    }
    if (cancelAtPeriodEnd) {
      cancelProcess = Process.API;
    }
    String actor = cancelProcess == Process.API ? SubscriptionChanges.actorOf(cancelRequest)
        : SubscriptionChanges.SYSTEM_ACTOR;
    RecordInput change = cancelProcess == Process.API
        ? SubscriptionChanges.cancellation(current, cancelRequest, now())
        : SubscriptionChanges.cancellation(current, cancelRequest.reason(), actor, cancelProcess, now());
    long endingCycle = current.cycle();
    record(change);
    upsertSearchAttributes(false);
    lastOutcome = "cancelled by " + actor
        + (cancelRequest.reason() == null ? "" : ": " + cancelRequest.reason());
    log.info("subscription {} cancelled at version {}", current.subscriptionId(), current.version());
    // The client that cancels is answered; the customer is told too when money was left behind.
    if (cancelProcess != Process.API || cancelAtPeriodEnd || balance != null) {
      notice(new NotifyCustomerInput(NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED,
          BillingIds.messageId(current.subscriptionId(), endingCycle, "cancelled"),
          current.accountId(), current.subscriptionId(), endingCycle, current.email(), current.sku(),
          current.price(), current.schedule().dateAt(now()), current.paymentMethod().mask(),
          cancelRequest.reason(), current.schedule().timeZone(), now(), current.locale()));
    }
    cancelRecorded = true;
    // Money already asked for may still move: the run stays open, settle-only, until it is known.
    if (periods.awaitingOutcome()) {
      return settleThenEnd();
    }
    return end();
  }

  /**
   * Settle-only mode: no reminder, charge or retry; payment events are acted on as they come and a
   * period without one is looked up on its settlement timeout, as on the normal path. Its outcome is
   * recorded with the subscription left CANCELLED (see {@link PaymentCollector}). Runs in this same
   * execution: a few timers, lookups and records per period, so no continue-as-new is needed.
   */
  private SubscriptionState settleThenEnd() {
    collector.keepOnlySettling();
    BillingSchedule schedule = current.schedule();
    while (true) {
      while (periods.hasEvents()) {
        collector.onEvent(periods.nextEvent());
      }
      if (periods.openPeriods().isEmpty()) {
        break;
      }
      Instant now = now();
      OpenPeriod due = periods.firstDue(schedule, now);
      if (due != null) {
        collector.serve(due);
        continue;
      }
      Instant until = PeriodCollection.actionAt(schedule, periods.next(schedule, now), now);
      phase = Phase.WAITING_FOR_SETTLEMENT;
      waitingUntil = until;
      Workflow.await(Duration.between(now, until), periods::hasEvents);
      waitingUntil = null;
    }
    return end();
  }

  private SubscriptionState end() {
    phase = Phase.ENDED;
    waitingUntil = null;
    ending = true;
    // Refunds still come (a refund after the end restarts this workflow with the record): they are
    // applied here; every other change is refused by its own rule, the subscription being ended.
    while (true) {
      changes.applyAll();
      if (Workflow.isEveryHandlerFinished() && noticesDone() && !requests.waitsBeforeEnd()) {
        break;
      }
      // A refund without an answer keeps the run open for its re-sends (see RequestLog).
      Workflow.await(() -> (Workflow.isEveryHandlerFinished() && noticesDone() && !requests.waitsBeforeEnd())
          || !changes.isEmpty());
    }
    return snapshot();
  }

  private void sleepUntil(Phase waitingPhase, Instant until) {
    phase = waitingPhase;
    Duration remaining = Duration.between(now(), until);
    if (remaining.isNegative() || remaining.isZero()) {
      return;
    }
    waitingUntil = until;
    Workflow.await(remaining, this::wakeUp);
    waitingUntil = null;
  }

  /** Something only the main thread can do has come up while it waits. */
  private boolean wakeUp() {
    return cancelRequested() || !methodChanges.isEmpty() || periods.hasEvents() || !changes.isEmpty()
        || pauseAfterDunning != null || notices.hasBounces();
  }

  private boolean readyToContinue() {
    return Workflow.isEveryHandlerFinished() && noticesDone();
  }

  private boolean noticesDone() {
    return notices.allDone();
  }

  private void notice(NotifyCustomerInput input) {
    notices.send(input);
  }

  /** A cycle's reminder instant: the subscription's own time of day when spread, else midnight. */
  private Instant reminderAt(BillingSchedule schedule, long cycle, boolean spread) {
    return spread ? DueInstants.reminderAt(schedule, cycle, current.subscriptionId()) : schedule.reminderAt(cycle);
  }

  private static boolean hasDueWindow(BillingSchedule schedule) {
    return schedule.dueWindow() != null && !schedule.dueWindow().isZero();
  }

  private void record(RecordInput change) {
    RecordResult result = records.record(change);
    current = landed(change.next(), result.version());
    if (result.receiptPending() && change.receipt() != null) {
      // The record's own delivery of the receipt failed: its own activity retries it, beside billing.
      notice(CustomerNotices.receipt(current, change.receipt(), now()));
    }
  }

  private void ledgerRecord(RecordInput change) {
    record(change);
    // Identity too: a plan change moves the Sku; unchanged values cost no command.
    upsertSearchAttributes(true);
  }

  /** The store may report a higher version than we wrote (a retry that had committed later work). */
  private static Subscription landed(Subscription written, long storedVersion) {
    return written.withVersion(Math.max(written.version(), storedVersion));
  }

  /**
   * Upserts only what differs from the execution's current search attributes: they carry over on
   * continue-as-new, so a cycle whose status stays the same costs no action. NextPaymentDate and
   * PastDueSince ride along when an upsert is made anyway, never alone (see SubscriptionVisibility).
   */
  private void upsertSearchAttributes(boolean includeIdentity) {
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>();
    SearchAttributes existing = Workflow.getTypedSearchAttributes();
    addIfDifferent(updates, existing, BillingSearchAttributes.BILLING_STATUS, current.status().name());
    if (includeIdentity) {
      addIfDifferent(updates, existing, BillingSearchAttributes.ACCOUNT_ID, current.accountId());
      addIfDifferent(updates, existing, BillingSearchAttributes.SKU, current.sku());
    }
    updates = SubscriptionVisibility.withStatusChange(updates, existing, current, now());
    if (!updates.isEmpty()) {
      Workflow.upsertTypedSearchAttributes(updates.toArray(new SearchAttributeUpdate<?>[0]));
    }
  }

  private static void addIfDifferent(List<SearchAttributeUpdate<?>> updates,
      SearchAttributes existing, SearchAttributeKey<String> key, String value) {
    if (!Objects.equals(existing.get(key), value)) {
      updates.add(key.valueSet(value));
    }
  }

  private static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof TemporalFailure temporal ? temporal.getOriginalMessage() : cause.getMessage();
  }

  private boolean cancelRequested() {
    return cancelRequest != null;
  }

  private SubscriptionState snapshot() {
    return new SubscriptionState(current, phase, waitingUntil, lastOutcome);
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }

  /** The collector's view of this workflow: it writes only through here. */
  private final class CollectorLedger implements PaymentCollector.Ledger {
    @Override
    public Subscription current() {
      return current;
    }

    @Override
    public void record(RecordInput change) {
      ledgerRecord(change);
    }

    @Override
    public void phase(Phase newPhase) {
      phase = newPhase;
    }

    @Override
    public void outcome(String sentence) {
      lastOutcome = sentence;
    }

    @Override
    public void notice(NotifyCustomerInput notice) {
      SubscriptionWorkflowImpl.this.notice(notice);
    }

    @Override
    public void cancelAfterDunning(String reason) {
      if (cancelRequest == null) {
        cancelRequest = new CancelRequest(reason, SubscriptionChanges.SYSTEM_ACTOR);
        cancelProcess = Process.RETRY;
      }
    }

    @Override
    public void pauseAfterDunning(String reason) {
      pauseAfterDunning = reason;
    }
  }

  /** The lifecycle operations' view of this workflow: they write only through here. */
  private final class LifecycleHost implements LifecycleOperations.Host {
    @Override
    public Subscription current() {
      return current;
    }

    @Override
    public void record(RecordInput change) {
      ledgerRecord(change);
    }

    @Override
    public void notice(NotifyCustomerInput notice) {
      SubscriptionWorkflowImpl.this.notice(notice);
    }

    @Override
    public void outcome(String sentence) {
      lastOutcome = sentence;
    }

    @Override
    public void phase(Phase newPhase) {
      phase = newPhase;
    }

    @Override
    public Instant movedReminderAt(BillingSchedule moved) {
      return reminderAt(moved, current.cycle(), hasDueWindow(moved));
    }

    @Override
    public void replan() {
      if (next == null) {
        next = Flow.REPLAN;
      }
    }

    @Override
    public void nextRun() {
      next = Flow.NEXT_RUN;
    }
  }
}
