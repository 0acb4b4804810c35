package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DueInstants;
import dev.billing.domain.EmailBounce;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.BillingActivityOptions;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PendingUpgrade;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionState;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.SubscriptionVisibility;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.RecordActivities;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.common.SearchAttributes;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * The state of one run: the subscription as recorded, where the run is (phase, what it waits until,
 * the last outcome), the periods being collected, the notices under way, and what the main loop
 * must do at its next safe point (plan again, continue as new, cancel, pause after dunning). The
 * workflow and its collaborators share this one object; only the main thread writes it.
 *
 * <p>The subscription changes only by being recorded, so recording happens here: the record, the
 * version the store reports, and the search attributes that follow it.
 */
final class RunState {
  private static final Logger log = Workflow.getLogger(RunState.class);

  /** How a plan of the run ended. */
  enum Flow {
    /** A change moved the timers (pause, resume, billing day, cancel at period end): plan again. */
    REPLAN,
    /** The cycle is done (or a paused period was skipped): continue as new. */
    NEXT_RUN,
    /** The subscription ended. */
    ENDED
  }

  private final RecordActivities records =
      Workflow.newActivityStub(RecordActivities.class, BillingActivityOptions.RECORD_CHANGE);

  private Subscription current;
  private boolean recorded;
  private Phase phase;
  private Instant waitingUntil;
  private String lastOutcome;
  final PeriodCollection periods;
  final RequestLog requests;
  final CustomerNotices notices = new CustomerNotices();
  final ChangeQueue changes = new ChangeQueue(this);

  /** Set when the current plan ends: a new plan in this run, or the next run. */
  private Flow next;

  /** The cancellation being carried out (asked by a client, or decided by the run itself). */
  private CancelRequest cancellation;

  private Process cancelProcess = Process.API;

  /** The cancellation is the end of a cancellation at period end, not a new request. */
  private boolean cancelAtPeriodEnd;

  /** Set when dunning ended with PAUSE: the pause is recorded at the next safe point. */
  private String pauseAfterDunning;

  RunState(SubscriptionInput input) {
    current = input.subscription();
    recorded = input.recorded();
    phase = recorded ? Phase.WAITING_FOR_REMINDER : Phase.RECORDING_CREATION;
    lastOutcome =
        recorded
            ? "cycle " + current.cycle() + " is next; subscription is " + current.status()
            : "creation requested";
    periods = new PeriodCollection(current.subscriptionId(), input.collections());
    requests = new RequestLog(input.requests());
  }

  Subscription current() {
    return current;
  }

  boolean recorded() {
    return recorded;
  }

  void phase(Phase newPhase) {
    phase = newPhase;
  }

  void waitingUntil(Instant until) {
    waitingUntil = until;
  }

  String lastOutcome() {
    return lastOutcome;
  }

  void outcome(String sentence) {
    lastOutcome = sentence;
  }

  SubscriptionState snapshot() {
    return new SubscriptionState(current, phase, waitingUntil, lastOutcome);
  }

  // ---- Recording.

  /** Records the subscription's creation (first run only), asked for by {@code createdBy}. */
  void recordCreation(String createdBy) {
    phase(Phase.RECORDING_CREATION);
    write(SubscriptionChanges.creation(current, createdBy, now()));
    recorded = true;
    outcome(
        "subscription created (version "
            + current.version()
            + "); cycle "
            + current.cycle()
            + " due "
            + current.nextPaymentDate());
    log.info("subscription {} created at version {}", current.subscriptionId(), current.version());
    upsertSearchAttributes(true);
  }

  /** Writes the change and moves the subscription on, with every search attribute that differs. */
  void record(RecordInput change) {
    write(change);
    // Identity too: a plan change moves the Sku; unchanged values cost no command.
    upsertSearchAttributes(true);
  }

  /** Writes the change and moves the subscription on; search attributes are the caller's. */
  void write(RecordInput change) {
    RecordResult result = records.record(change);
    current = landed(change.next(), result.version());
    // A reversing receipt (negative: a returned charge) is no payment to mail; a notice says it.
    if (result.receiptPending()
        && change.receipt() != null
        && change.receipt().amount().minor() > 0) {
      // The record's own delivery of the receipt failed: its own activity retries it, beside
      // billing.
      notice(CustomerNotices.receipt(current, change.receipt(), now()));
    }
  }

  /**
   * The subscription as it stands without a record: a version an activity may have used, or the
   * debt a cancellation writes off.
   */
  void replace(Subscription subscription) {
    current = subscription;
  }

  /**
   * The store may report a higher version than we wrote (a retry that had committed later work).
   */
  static Subscription landed(Subscription written, long storedVersion) {
    return written.withVersion(Math.max(written.version(), storedVersion));
  }

  /**
   * Upserts only what differs from the execution's current search attributes: they carry over on
   * continue-as-new, so a cycle whose status stays the same costs no action. NextPaymentDate and
   * PastDueSince ride along when an upsert is made anyway, never alone (see
   * SubscriptionVisibility).
   */
  void upsertSearchAttributes(boolean includeIdentity) {
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>();
    SearchAttributes existing = Workflow.getTypedSearchAttributes();
    addIfDifferent(
        updates, existing, BillingSearchAttributes.BILLING_STATUS, current.status().name());
    if (includeIdentity) {
      addIfDifferent(updates, existing, BillingSearchAttributes.ACCOUNT_ID, current.accountId());
      addIfDifferent(updates, existing, BillingSearchAttributes.SKU, current.sku());
    }
    updates = SubscriptionVisibility.withStatusChange(updates, existing, current, now());
    if (!updates.isEmpty()) {
      Workflow.upsertTypedSearchAttributes(updates.toArray(new SearchAttributeUpdate<?>[0]));
    }
  }

  private static void addIfDifferent(
      List<SearchAttributeUpdate<?>> updates,
      SearchAttributes existing,
      SearchAttributeKey<String> key,
      String value) {
    if (!Objects.equals(existing.get(key), value)) {
      updates.add(key.valueSet(value));
    }
  }

  /**
   * A notice about the cycle the subscription is on, under its message id {@code id} for that
   * cycle.
   */
  NotifyCustomerInput.Builder noticeOf(NotifyCustomerInput.Kind kind, String id) {
    return NotifyCustomerInput.about(kind, current)
        .messageId(BillingIds.messageId(current.subscriptionId(), current.cycle(), id))
        .at(now());
  }

  /** Sends a customer notice beside billing; its failure is logged, never fatal. */
  void notice(NotifyCustomerInput notice) {
    notices.send(notice);
  }

  /**
   * Records the bounces reported since the last safe point on the subscription (each message once).
   * A bounce of a message sent before the customer gave a new address is not the new address's:
   * only logged. Until a customer change every message goes to the subscription's address, so a run
   * without one records every bounce and commands exactly what it did before this check.
   */
  void recordBounces() {
    while (notices.hasBounces() && !current().status().isTerminal()) {
      CustomerNotices.Bounce next = notices.nextBounce();
      EmailBounce bounce = next.bounce();
      if (!next.to().equals(current().email())) {
        log.info("message {} bounced from an address since replaced", bounce.messageId());
        continue;
      }
      EmailBounce known = current().lifecycle().emailBounce();
      if (known == null || !known.messageId().equals(bounce.messageId())) {
        record(LifecycleChanges.emailBounced(current(), bounce, now()));
        outcome("message " + bounce.messageId() + " bounced: " + bounce.reason());
      }
    }
  }

  // ---- What the main loop does at its next safe point.

  /** The run's plan (timers, steps) no longer holds: plan again at the next safe point. */
  void replan() {
    if (next == null) {
      next = Flow.REPLAN;
    }
  }

  /** A cycle boundary was crossed (a skipped period): continue as new at the next safe point. */
  void nextRun() {
    next = Flow.NEXT_RUN;
  }

  Flow next() {
    return next;
  }

  void clearNext() {
    next = null;
  }

  /**
   * An immediate cancellation is under way: asked by a client (still queued) or decided by the run.
   * Every change but a refund is refused from then on.
   */
  boolean cancelling() {
    return cancellation != null || changes.cancelAsked() != null;
  }

  /**
   * Dunning ended with CANCEL: cancel at the next safe point, unless a cancellation is under way.
   */
  void cancelAfterDunning(String reason) {
    if (!cancelling()) {
      cancellation = new CancelRequest(reason, SubscriptionChanges.SYSTEM_ACTOR);
      cancelProcess = Process.RETRY;
    }
  }

  /** The paid period of a cancellation at period end is over. */
  void cancelAtPeriodEnd(String reason) {
    cancelAtPeriodEnd = true;
    cancellation = new CancelRequest(reason, SubscriptionChanges.SYSTEM_ACTOR);
  }

  /**
   * The cancellation to record: a client's taken from the queue, or one with its reason completed.
   */
  void cancel(CancelRequest request) {
    cancellation = request;
  }

  /** Billing again after the end: the cancellation carried out is history now. */
  void reactivated() {
    cancellation = null;
    cancelAtPeriodEnd = false;
    cancelProcess = Process.API;
  }

  CancelRequest cancellation() {
    return cancellation;
  }

  /**
   * The process a cancellation is recorded under: API for a client's or a period end's, else RETRY.
   */
  Process cancelProcess() {
    return cancelAtPeriodEnd ? Process.API : cancelProcess;
  }

  boolean cancelAtPeriodEnd() {
    return cancelAtPeriodEnd;
  }

  /** Dunning ended with PAUSE: pause (open-ended) at the next safe point. */
  void pauseAfterDunning(String reason) {
    pauseAfterDunning = reason;
  }

  /** The pause dunning asked for, once; null when none. */
  String takePauseAfterDunning() {
    String reason = pauseAfterDunning;
    pauseAfterDunning = null;
    return reason;
  }

  boolean pausePending() {
    return pauseAfterDunning != null;
  }

  /**
   * An INCOMPLETE subscription's first payment is being collected (retried, settling or looked up):
   * its next cycle waits (RunPlanner) and it cannot be paused.
   */
  boolean firstPaymentOpen() {
    return current.status() == SubscriptionStatus.INCOMPLETE && !periods.openPeriods().isEmpty();
  }

  /**
   * A term switch's charge has no outcome yet: the cycle's reminder and charge wait (RunPlanner),
   * since the switch, once collected, moves the cycle's due date and price; charged meanwhile at
   * the old term, the cycle would be paid twice.
   */
  boolean termSwitchOpen() {
    PendingUpgrade upgrade = requests.pendingUpgrade();
    return upgrade != null && upgrade.term() != null && upgrade.term() != current.schedule().term();
  }

  /** When the run, planned again with a moved schedule, reminds of the cycle it is on. */
  Instant movedReminderAt(BillingSchedule moved) {
    return reminderAt(moved, current.cycle());
  }

  /** A cycle's reminder instant: the subscription's own time of day when spread, else midnight. */
  Instant reminderAt(BillingSchedule schedule, long cycle) {
    return hasDueWindow(schedule)
        ? DueInstants.reminderAt(schedule, cycle, current.subscriptionId())
        : schedule.reminderAt(cycle);
  }

  /** A cycle's due instant: the subscription's own time of day when spread, else midnight. */
  Instant dueAt(BillingSchedule schedule, long cycle) {
    return hasDueWindow(schedule)
        ? DueInstants.dueAt(schedule, cycle, current.subscriptionId())
        : schedule.dueAt(cycle);
  }

  private static boolean hasDueWindow(BillingSchedule schedule) {
    return schedule.dueWindow() != null && !schedule.dueWindow().isZero();
  }

  static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
