package dev.billing.workflows.subscription;

import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.subscription.ChargeAttempts.Attempt;
import io.temporal.workflow.Workflow;
import java.time.Instant;

/**
 * Collects periods: the first attempt of the run's cycle, dunning retries, settlement of bank
 * debits, gateway lookups after unknown outcomes, and the effects of payment events. Runs on the
 * workflow's main thread only; writes go through the {@link RunState}, which holds the
 * subscription.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Never two successful charges for one period. Attempt n uses key charge:sub:cycle:n on every
 *       Temporal retry. An attempt that got no answer (gateway errors outlasted the retries, or a
 *       timeout) is looked up by its key before anything else: SUCCEEDED is paid, PENDING waits for
 *       settlement, FAILED is a decline, NOT_FOUND means the money did not move. If the lookup gets
 *       no answer either, the outcome stays unknown and the next retry date asks again instead of
 *       charging. A NOT_FOUND an hour or more after the key's send ended is proof: the next attempt
 *       is n+1 with a new key (the gateway may replay a stored 500 for key n for 24 hours), and key
 *       n is never sent again; earlier, the same key is sent again. A period leaves the open set
 *       once collected, so later events about it do nothing.
 *   <li>Dunning: the first failure of a period snapshots the policy (local activity) into the
 *       period. Retry k is at the start of day due date + retryAfterDays[k] in the subscription's
 *       zone (return date + days for a returned payment). Every failure is recorded (period ERROR,
 *       subscription PAST_DUE, PAYMENT_FAILED, or DUNNING_EXHAUSTED when none is left) and notified
 *       (PAYMENT_FAILED with the next retry date, none when exhausted). A hard decline skips the
 *       remaining retries. Exhausted: CANCEL cancels (process RETRY, actor system); LEAVE_UNPAID
 *       leaves the period ERROR and billing goes on; PAUSE leaves it ERROR and pauses the
 *       subscription until it is resumed. An unpaid period stays owed (manual repayment, waiver)
 *       until it turns STALE.
 *   <li>A new payment method makes every period in dunning due at once (attempt n+1); the schedule
 *       then goes on with its next date. A RESOLVING period is looked up at once and charged to the
 *       new method only once its unknown key proves to have moved no money.
 *   <li>Every key is looked up under the payment method it was sent to (gateways list by customer).
 *   <li>A return counts as an attempt: dunning after a return counts the attempts made so far.
 *   <li>Bank debits: a pending charge is recorded PENDING_SETTLEMENT and waits for its event; after
 *       {@link DunningSchedule#SETTLEMENT_TIMEOUT} the gateway is asked. A failure enters dunning
 *       counted from the due date; a return of a settled charge (still among the last {@link
 *       ChargeLedger#MAX_SETTLED} settled) reopens the period ERROR and duns it counted from the
 *       return date.
 *   <li>Status: collecting a period makes the subscription ACTIVE unless another period is still in
 *       dunning; a pending charge leaves the status as it was.
 *   <li>After a cancellation (settle-only): pending and unanswered charges are still settled by
 *       event or lookup; success writes the receipt, failure records the period ERROR, neither
 *       changes the CANCELLED status, and there is no dunning, retry or notice.
 * </ul>
 */
final class PaymentCollector {
  private final RunState run;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;
  private final Settlement settlement;
  private final Dunning dunning;
  private final Resolution resolution;
  private final PaymentEvents events;

  PaymentCollector(RunState run, Gateway gateway) {
    this.run = run;
    this.periods = run.periods;
    this.charging = new ChargeAttempts(run, gateway);
    this.settlement = new Settlement(run, charging);
    this.dunning = new Dunning(run, charging, settlement);
    this.resolution = new Resolution(run, charging, settlement, dunning, this);
    this.events =
        new PaymentEvents(
            run, gateway, charging, settlement, dunning, new GatewayMoney(run, gateway));
  }

  /** What a manual repayment came to, for the update that asked for it. */
  enum ManualOutcome {
    PAID,
    DECLINED,
    PENDING,
    UNKNOWN
  }

  record ManualResult(ManualOutcome outcome, String message) {}

  /**
   * Attempt 1 of the cycle the subscription is on; its record moves the subscription to the next
   * cycle.
   */
  void firstAttempt(long cycle) {
    if (charging.amountOf(cycle).minor() == 0) {
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput paid =
          SubscriptionChanges.paidByCredit(current(), charging.statusAfterCollecting(cycle), now());
      run.record(paid);
      run.outcome("cycle " + cycle + " " + paid.detail());
      return;
    }
    Money due = charging.amountOf(cycle);
    if (due.greaterThanZero() && !ChargeMinimums.chargeable(due)) {
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput carried =
          SubscriptionChanges.carriedOver(
              current(), due, charging.statusAfterCollecting(cycle), now());
      run.record(carried);
      run.outcome("cycle " + cycle + " " + carried.detail());
      return;
    }
    run.phase(Phase.CHARGING);
    Attempt attempt = charging.charge(cycle, 1);
    if (attempt.result() != null) {
      ChargeResult charge = attempt.result();
      if (charge.pending()) {
        settlement.pending(
            cycle,
            1,
            null,
            charge.transactionId(),
            true,
            Process.INITIAL,
            CollectionChanges.changeId(cycle, 1, null));
        return;
      }
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput paid =
          SubscriptionChanges.paid(
              current(), 1, charge, charging.statusAfterCollecting(cycle), now());
      periods.settled(
          new SettledCharge(
              cycle, 1, charging.key(cycle, 1), charge.transactionId(), paid.period().amount()));
      run.record(paid);
      run.outcome(
          "cycle " + cycle + " charged " + paid.period().amount() + ": " + charge.transactionId());
      return;
    }
    dunning.failedAttempt(cycle, 1, attempt.failure(), null, null);
  }

  /** Acts on a payment event taken from the inbox (see {@link PaymentEvents}). */
  void onEvent(PaymentEvent event) {
    events.onEvent(event);
  }

  /** After a cancellation: see {@link Resolution#keepOnlySettling}. */
  boolean keepOnlySettling() {
    return resolution.keepOnlySettling();
  }

  /**
   * Records every payment method change waiting in the queue, answering each handler. A new payment
   * method makes every period in dunning due at once, and has every RESOLVING one looked up at once
   * (and charged to the new method once the gateway says its last key moved no money).
   */
  void recordNewPaymentMethods(ChangeQueue changes) {
    QueuedChange.NewPaymentMethod method = changes.paymentMethodChange();
    if (method != null) {
      // Until none is left: a change accepted while an earlier one is being recorded is recorded
      // too, so no accepted change is left waiting when a cancellation comes next.
      while (method != null) {
        run.phase(Phase.RECORDING_PAYMENT);
        run.record(CollectionChanges.paymentMethodChanged(run.current(), method.request(), now()));
        changes.recorded(method);
        run.outcome("payment method changed to " + run.current().paymentMethod().mask());
        method = changes.paymentMethodChange();
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
  }

  /** Serves an open period that is due: a retry, or a settlement that waited long enough. */
  void serve(OpenPeriod period) {
    run.phase(Phase.CHARGING);
    if (period.state() == State.PENDING_SETTLEMENT) {
      resolution.settleByLookup(period);
    } else if (period.state() == State.RESOLVING) {
      resolution.resolveByLookup(period);
    } else {
      retry(period.withRetryNow(false));
    }
  }

  /**
   * Manual repayment (process MANUAL_REPAYMENT) of a period that is owed: in dunning it is an extra
   * attempt, as a new payment method would make; after dunning it is one more attempt, whose
   * decline is recorded without starting dunning again.
   */
  ManualResult payNow(long cycle) {
    charging.manual(true);
    try {
      run.phase(Phase.CHARGING);
      OpenPeriod open = periods.open(cycle);
      if (open != null) {
        retry(open.withRetryNow(false));
      } else {
        payUnpaid(periods.unpaid(cycle));
      }
    } finally {
      charging.manual(false);
    }
    OpenPeriod open = periods.open(cycle);
    UnpaidPeriod unpaid = periods.unpaid(cycle);
    if (open == null && unpaid == null) {
      return new ManualResult(ManualOutcome.PAID, "cycle " + cycle + " paid");
    }
    if (open != null && open.state() == State.PENDING_SETTLEMENT) {
      return new ManualResult(
          ManualOutcome.PENDING, "cycle " + cycle + " charge accepted, settling");
    }
    if (open != null && open.outcomeUnknown()) {
      return new ManualResult(
          ManualOutcome.UNKNOWN,
          "cycle "
              + cycle
              + ": the gateway gave no answer; the outcome is looked up before any new attempt");
    }
    String why = open != null ? open.failureMessage() : unpaid.failureMessage();
    return new ManualResult(ManualOutcome.DECLINED, why == null ? "payment declined" : why);
  }

  void payUnpaid(UnpaidPeriod unpaid) {
    long cycle = unpaid.cycle();
    int number = unpaid.attempts() + 1;
    Money amount = charging.amountOf(cycle);
    Attempt attempt = charging.charge(cycle, number);
    if (attempt.result() != null && !attempt.result().pending()) {
      settlement.collected(
          cycle,
          number,
          attempt.result().transactionId(),
          attempt.result().processedAt(),
          Process.MANUAL_REPAYMENT,
          null);
      return;
    }
    periods.removeUnpaid(cycle);
    if (attempt.result() != null) {
      settlement.pending(
          cycle,
          number,
          null,
          attempt.result().transactionId(),
          false,
          Process.MANUAL_REPAYMENT,
          CollectionChanges.changeId(cycle, number, null),
          // The unpaid period, which held the charged amount, is gone by now.
          WorkflowChanges.manualPendingAtChargedAmount() ? amount : null);
      return;
    }
    ChargeFailure failure = attempt.failure();
    if (failure.outcomeUnknown()) {
      // Never charged again blindly: the key is looked up after the settlement timeout.
      periods.put(
          OpenPeriod.pending(
              cycle,
              number,
              null,
              null,
              0,
              now().plus(DunningSchedule.SETTLEMENT_TIMEOUT),
              null,
              amount));
      run.outcome(
          "cycle "
              + cycle
              + " manual payment got no answer; "
              + charging.key(cycle, number)
              + " is looked up before anything else");
      return;
    }
    String detail =
        "manual payment failed: "
            + failure.code()
            + (failure.message() == null ? "" : " (" + failure.message() + ")");
    periods.putUnpaid(
        new UnpaidPeriod(
            cycle,
            number,
            amount,
            unpaid.dueDate(),
            unpaid.staleAfterDays(),
            failure.message() != null ? failure.message() : failure.code()));
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(
        CollectionChanges.unpaid(
            current(),
            cycle,
            amount,
            number,
            failure.code(),
            failure.message(),
            HistoryEvent.PAYMENT_FAILED,
            false,
            Process.MANUAL_REPAYMENT,
            CollectionChanges.changeId(cycle, number, null),
            detail,
            now()));
    run.outcome("cycle " + cycle + " " + detail);
  }

  void retry(OpenPeriod period) {
    periods.put(period);
    long cycle = period.cycle();
    int attemptNumber = period.attempts() + 1;
    String suffix = null;
    if (period.outcomeUnknown()) {
      ChargeLookup lookup = charging.lookUp(cycle, period.attempts());
      ChargeLookup.Status status = lookup == null ? null : lookup.status();
      if (status == ChargeLookup.Status.SUCCEEDED) {
        settlement.collected(
            cycle,
            period.attempts(),
            lookup.transactionId(),
            lookup.processedAt(),
            charging.processOf(period.attempts()),
            "settled");
        return;
      }
      if (status == ChargeLookup.Status.PENDING) {
        settlement.pending(
            cycle,
            period.attempts(),
            period,
            lookup.transactionId(),
            false,
            charging.processOf(period.attempts()),
            CollectionChanges.changeId(cycle, period.attempts(), "pending"));
        return;
      }
      if (status == null) {
        // No answer: sending the key again would count on the gateway still remembering it, which
        // it does for 24 hours only. Nothing is sent until the gateway can say what the key did.
        dunning.stillUnknown(period);
        return;
      }
      if (status == ChargeLookup.Status.FAILED || status == ChargeLookup.Status.RETURNED) {
        if (status == ChargeLookup.Status.RETURNED) {
          charging.returnedCharge(period, lookup.transactionId());
        }
        periods.put(period = period.withOutcomeKnown());
      } else if (charging.provenUnsent(period)) {
        // The key made no charge, but the gateway may hold a 500 for it and replay it for 24
        // hours: the next attempt takes a key never sent. This one is never sent again; a late
        // success of it is still looked up before it collects (CONFIRM_SUCCESS).
        periods.put(period = period.withOutcomeKnown());
      } else {
        // Not proof yet: sending the same key again is safe, as the gateway still holds it.
        attemptNumber = period.attempts();
        suffix = RESENT;
      }
    }
    Process process = charging.processOf(attemptNumber);
    Attempt attempt = charging.charge(cycle, attemptNumber);
    if (attempt.result() == null) {
      dunning.failedAttempt(cycle, attemptNumber, attempt.failure(), period, suffix);
    } else if (attempt.result().pending()) {
      settlement.pending(
          cycle,
          attemptNumber,
          period,
          attempt.result().transactionId(),
          false,
          process,
          CollectionChanges.changeId(cycle, attemptNumber, suffix));
    } else {
      ChargeResult charge = attempt.result();
      settlement.collected(
          cycle, attemptNumber, charge.transactionId(), charge.processedAt(), process, suffix);
    }
  }

  /** Change-id suffix of the outcome of a key sent again after its first send got no answer. */
  static final String RESENT = "resent";

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
