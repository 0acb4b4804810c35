package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Subscription;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.RecordActivities;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.RecordResult;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * Bills one cycle per run, then continues as new. Only the main workflow thread writes the
 * subscription; the cancel handler just asks for the cancellation and waits until the main thread
 * has recorded it at its next safe point (while sleeping, or after a step has completed), so a
 * cancellation never lands between a charge and its record.
 */
public class SubscriptionWorkflowImpl implements SubscriptionWorkflow {
  private final java.util.List<PaymentEvent> paymentEvents = new java.util.ArrayList<>();


  private static final Logger log = Workflow.getLogger(SubscriptionWorkflowImpl.class);

  private final RecordActivities records =
      Workflow.newActivityStub(RecordActivities.class, BillingActivityOptions.RECORD_CHANGE);
  private final PaymentActivities payments =
      Workflow.newActivityStub(PaymentActivities.class, BillingActivityOptions.CHARGE_PAYMENT_METHOD);

  private Subscription current;
  private boolean recorded;
  private Phase phase;
  private Instant waitingUntil;
  private String lastOutcome;
  private CancelRequest cancelRequest;
  private boolean cancelRecorded;

  /** Runs before any handler, so updates and queries always see the subscription. */
  @WorkflowInit
  public SubscriptionWorkflowImpl(SubscriptionInput input) {
    current = input.subscription();
    recorded = input.recorded();
    phase = recorded ? Phase.WAITING_FOR_REMINDER : Phase.RECORDING_CREATION;
    lastOutcome = recorded
        ? "cycle " + current.cycle() + " is next; subscription is " + current.status()
        : "creation requested";
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
    if (current.status().isTerminal()) {
      return end();
    }
    long cycle = current.cycle();
    BillingSchedule schedule = current.schedule();

    if (schedule.reminderDaysBefore() > 0 && !cancelRequested()) {
      sleepUntil(Phase.WAITING_FOR_REMINDER, schedule.reminderAt(cycle));
      if (!cancelRequested()) {
        remind(cycle, schedule.dueAt(cycle));
      }
    }
    if (!cancelRequested()) {
      sleepUntil(Phase.WAITING_FOR_PAYMENT, schedule.dueAt(cycle));
    }
    if (!cancelRequested()) {
      chargeAndRecord(cycle);
    }

    // A cancel that arrives while we wait for handlers is itself a handler that waits for us, so
    // the wait also ends on a cancel request.
    Workflow.await(() -> Workflow.isEveryHandlerFinished() || cancelRequested());
    if (cancelRequested()) {
      return cancelAndEnd();
    }
    Workflow.continueAsNew(new SubscriptionInput(current, true));
    return snapshot(); // not reached: continueAsNew does not return
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
  public SubscriptionState changePaymentMethod(PaymentMethodChange change) {
    throw new IllegalStateException("unreachable: the validator refuses every change until issue 4 lands");
  }

  @Override
  public void validateChangePaymentMethod(PaymentMethodChange change) {
    // In progress (issue 4): recording the change and retrying an unpaid period at once.
    throw UpdateRejections.transitionNotAllowed("changing the payment method is not available yet");
  }

  @Override
  public void paymentEvent(PaymentEvent event) {
    // Buffered in arrival order; the billing loop decides what each means in its current state.
    paymentEvents.add(event);
  }

  @Override
  public void validateCancel(CancelRequest request) {
    if (current.status().isTerminal() || cancelRequested()) {
      throw UpdateRejections.transitionNotAllowed("subscription is already cancelled");
    }
  }

  @Override
  public SubscriptionState cancel(CancelRequest request) {
    cancelRequest = request != null ? request : new CancelRequest(null, null);
    Workflow.await(() -> cancelRecorded);
    return snapshot();
  }

  private void recordCreation() {
    phase = Phase.RECORDING_CREATION;
    record(SubscriptionChanges.creation(current, now()));
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
          current.email(), current.sku(), current.price(), current.schedule().dueDate(cycle),
          current.paymentMethod().mask(), change));
      current = landed(change.next(), sent.version());
      lastOutcome = "cycle " + cycle + " reminder " + messageId + " sent for the payment due "
          + current.nextPaymentDate();
    } catch (ActivityFailure e) {
      // The activity may have recorded the reminder before failing, so its version counts as used:
      // the next write skips past it (the store only requires a higher version), and a late
      // reminder record can then never overwrite the charge.
      current = current.withVersion(change.next().version());
      lastOutcome = "cycle " + cycle + " reminder failed (" + reasonOf(e) + "); billing anyway";
      log.warn("cycle {} reminder of {} failed; billing anyway", cycle, current.subscriptionId(), e);
    }
  }

  private void chargeAndRecord(long cycle) {
    phase = Phase.CHARGING;
    int attempt = 1;
    String key = BillingIds.chargeKey(current.subscriptionId(), cycle, attempt);
    ChargeInput input = new ChargeInput(current.accountId(), current.subscriptionId(), cycle,
        attempt, current.price(), current.paymentMethod(), key,
        current.sku() + " subscription, period " + cycle + " due " + current.schedule().dueDate(cycle));
    RecordInput change;
    String outcome;
    try {
      ChargeResult paid = payments.charge(input);
      change = SubscriptionChanges.paid(current, attempt, paid, now());
      outcome = "cycle " + cycle + " charged " + current.price() + ": " + paid.transactionId();
    } catch (ActivityFailure e) {
      ChargeFailure failure = ChargeFailure.of(e);
      // TODO(dunning): an unpaid period is recorded and billing moves on. A later issue adds
      // retries of the period (charge-2, charge-3 ... with Process.RETRY) and, for
      // gateway_unavailable, looking up the outcome by idempotency key first: that charge may
      // have gone through even though no answer came back.
      change = SubscriptionChanges.unpaid(current, attempt, failure.code(), failure.message(), now());
      outcome = "cycle " + cycle + (failure.declined() ? " declined: " : " not charged: ")
          + failure.code() + " (" + failure.message() + ")";
      log.warn("cycle {} of {} unpaid: {}", cycle, current.subscriptionId(), failure.code());
    }
    phase = Phase.RECORDING_PAYMENT;
    record(change);
    lastOutcome = outcome;
    upsertSearchAttributes(false);
  }

  private SubscriptionState cancelAndEnd() {
    phase = Phase.CANCELLING;
    waitingUntil = null;
    record(SubscriptionChanges.cancellation(current, cancelRequest, now()));
    upsertSearchAttributes(false);
    lastOutcome = "cancelled by " + SubscriptionChanges.actorOf(cancelRequest)
        + (cancelRequest.reason() == null ? "" : ": " + cancelRequest.reason());
    log.info("subscription {} cancelled at version {}", current.subscriptionId(), current.version());
    cancelRecorded = true;
    return end();
  }

  private SubscriptionState end() {
    phase = Phase.ENDED;
    waitingUntil = null;
    Workflow.await(Workflow::isEveryHandlerFinished);
    return snapshot();
  }

  /** Sleeps until {@code until}, or less if a cancel arrives; no timer when it has already passed. */
  private void sleepUntil(Phase waitingPhase, Instant until) {
    phase = waitingPhase;
    Duration remaining = Duration.between(now(), until);
    if (remaining.isNegative() || remaining.isZero()) {
      return;
    }
    waitingUntil = until;
    Workflow.await(remaining, this::cancelRequested);
    waitingUntil = null;
  }

  private void record(RecordInput change) {
    RecordResult result = records.record(change);
    current = landed(change.next(), result.version());
  }

  /** The store may report a higher version than we wrote (a retry that had committed later work). */
  private static Subscription landed(Subscription written, long storedVersion) {
    return written.withVersion(Math.max(written.version(), storedVersion));
  }

  /**
   * Upserts only what differs from the execution's current search attributes: they carry over on
   * continue-as-new, so a cycle whose status stays the same costs no action.
   */
  private void upsertSearchAttributes(boolean includeIdentity) {
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>();
    SearchAttributes existing = Workflow.getTypedSearchAttributes();
    addIfDifferent(updates, existing, BillingSearchAttributes.BILLING_STATUS, current.status().name());
    if (includeIdentity) {
      addIfDifferent(updates, existing, BillingSearchAttributes.ACCOUNT_ID, current.accountId());
      addIfDifferent(updates, existing, BillingSearchAttributes.SKU, current.sku());
    }
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
}
