package dev.billing.workflows;

import dev.billing.domain.PaymentEvent;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.ChargeMinimums;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeLookupInput;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.activities.DunningPolicyRequest;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.PaymentActivities;
import dev.billing.workflows.activities.PolicyActivities;
import dev.billing.domain.RecordInput;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * Collects periods: the first attempt of the run's cycle, dunning retries, settlement of bank
 * debits, gateway lookups after unknown outcomes, and the effects of payment events. Runs on the
 * workflow's main thread only; writes go through the {@link RunState}, which holds the subscription.
 *
 * <p>Rules:
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
 *   <li>A new payment method makes every period in dunning due at once (attempt n+1); the
 *       schedule then goes on with its next date. A RESOLVING period is looked up at once and
 *       charged to the new method only once its unknown key proves to have moved no money.
 *   <li>Every key is looked up under the payment method it was sent to (gateways list by customer).
 *   <li>A return counts as an attempt: dunning after a return counts the attempts made so far.
 *   <li>Bank debits: a pending charge is recorded PENDING_SETTLEMENT and waits for its event;
 *       after {@link DunningSchedule#SETTLEMENT_TIMEOUT} the gateway is asked. A failure enters
 *       dunning counted from the due date; a return of a settled charge (still among the last
 *       {@link PeriodCollection#MAX_SETTLED} settled) reopens the period ERROR and duns it
 *       counted from the return date.
 *   <li>Status: collecting a period makes the subscription ACTIVE unless another period is still
 *       in dunning; a pending charge leaves the status as it was.
 *   <li>After a cancellation (settle-only): pending and unanswered charges are still settled by
 *       event or lookup; success writes the receipt, failure records the period ERROR, neither
 *       changes the CANCELLED status, and there is no dunning, retry or notice.
 * </ul>
 */
final class PaymentCollector {
  private static final Logger log = Workflow.getLogger(PaymentCollector.class);

  private record Attempt(ChargeResult result, ChargeFailure failure) {}

  private final PaymentActivities payments =
      Workflow.newActivityStub(PaymentActivities.class,
          BillingActivityOptions.onPaymentsQueue(BillingActivityOptions.CHARGE_PAYMENT_METHOD));
  private final PaymentActivities lookups =
      Workflow.newActivityStub(PaymentActivities.class,
          BillingActivityOptions.onPaymentsQueue(BillingActivityOptions.LOOK_UP_CHARGE));
  private final PolicyActivities policies =
      Workflow.newLocalActivityStub(PolicyActivities.class, BillingActivityOptions.DUNNING_POLICY);

  private final RunState run;
  private final PeriodCollection periods;
  /** Set while a manual repayment is being made: its attempts are recorded as MANUAL_REPAYMENT. */
  private boolean manual;

  /** What a manual repayment came to, for the update that asked for it. */
  enum ManualOutcome { PAID, DECLINED, PENDING, UNKNOWN }

  record ManualResult(ManualOutcome outcome, String message) {}

  PaymentCollector(RunState run) {
    this.run = run;
    this.periods = run.periods;
  }

  /** Attempt 1 of the cycle the subscription is on; its record moves the subscription to the next cycle. */
  void firstAttempt(long cycle) {
    if (amountOf(cycle).minor() == 0) {
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput paid = SubscriptionChanges.paidByCredit(current(), statusAfterCollecting(cycle), now());
      run.record(paid);
      run.outcome("cycle " + cycle + " " + paid.detail());
      return;
    }
    Money due = amountOf(cycle);
    if (due.greaterThanZero() && !ChargeMinimums.chargeable(due)) {
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput carried = SubscriptionChanges.carriedOver(current(), due,
          statusAfterCollecting(cycle), now());
      run.record(carried);
      run.outcome("cycle " + cycle + " " + carried.detail());
      return;
    }
    run.phase(Phase.CHARGING);
    Attempt attempt = charge(cycle, 1);
    if (attempt.result() != null) {
      ChargeResult charge = attempt.result();
      if (charge.pending()) {
        pending(cycle, 1, null, charge.transactionId(), true, Process.INITIAL,
            CollectionChanges.changeId(cycle, 1, null));
        return;
      }
      run.phase(Phase.RECORDING_PAYMENT);
      RecordInput paid = SubscriptionChanges.paid(current(), 1, charge, statusAfterCollecting(cycle), now());
      periods.settled(new SettledCharge(cycle, 1, key(cycle, 1), charge.transactionId(), paid.period().amount()));
      run.record(paid);
      run.outcome("cycle " + cycle + " charged " + paid.period().amount() + ": " + charge.transactionId());
      return;
    }
    failedAttempt(cycle, 1, attempt.failure(), null, null);
  }

  /** Serves an open period that is due: a retry, or a settlement that waited long enough. */
  void serve(OpenPeriod period) {
    run.phase(Phase.CHARGING);
    if (period.state() == State.PENDING_SETTLEMENT) {
      settleByLookup(period);
    } else if (period.state() == State.RESOLVING) {
      resolveByLookup(period);
    } else {
      retry(period.withRetryNow(false));
    }
  }

  /**
   * Manual repayment (seed 004's MANUAL_REPAYMENT) of a period that is owed: in dunning it is an
   * extra attempt, as a new payment method would make; after dunning it is one more attempt, whose
   * decline is recorded without starting dunning again.
   */
  ManualResult payNow(long cycle) {
    manual = true;
    try {
      run.phase(Phase.CHARGING);
      OpenPeriod open = periods.open(cycle);
      if (open != null) {
        retry(open.withRetryNow(false));
      } else {
        payUnpaid(periods.unpaid(cycle));
      }
    } finally {
      manual = false;
    }
    OpenPeriod open = periods.open(cycle);
    UnpaidPeriod unpaid = periods.unpaid(cycle);
    if (open == null && unpaid == null) {
      return new ManualResult(ManualOutcome.PAID, "cycle " + cycle + " paid");
    }
    if (open != null && open.state() == State.PENDING_SETTLEMENT) {
      return new ManualResult(ManualOutcome.PENDING, "cycle " + cycle + " charge accepted, settling");
    }
    if (open != null && open.outcomeUnknown()) {
      return new ManualResult(ManualOutcome.UNKNOWN,
          "cycle " + cycle + ": the gateway gave no answer; the outcome is looked up before any new attempt");
    }
    String why = open != null ? open.failureMessage() : unpaid.failureMessage();
    return new ManualResult(ManualOutcome.DECLINED, why == null ? "payment declined" : why);
  }

  private void payUnpaid(UnpaidPeriod unpaid) {
    long cycle = unpaid.cycle();
    int number = unpaid.attempts() + 1;
    Money amount = amountOf(cycle);
    Attempt attempt = charge(cycle, number);
    if (attempt.result() != null && !attempt.result().pending()) {
      collected(cycle, number, attempt.result().transactionId(), attempt.result().processedAt(),
          Process.MANUAL_REPAYMENT, null);
      return;
    }
    periods.removeUnpaid(cycle);
    if (attempt.result() != null) {
      pending(cycle, number, null, attempt.result().transactionId(), false, Process.MANUAL_REPAYMENT,
          CollectionChanges.changeId(cycle, number, null));
      return;
    }
    ChargeFailure failure = attempt.failure();
    if (failure.outcomeUnknown()) {
      // Never charged again blindly: the key is looked up after the settlement timeout.
      periods.put(OpenPeriod.pending(cycle, number, null, null, 0,
          now().plus(DunningSchedule.SETTLEMENT_TIMEOUT), null, amount));
      run.outcome("cycle " + cycle + " manual payment got no answer; " + key(cycle, number)
          + " is looked up before anything else");
      return;
    }
    String detail = "manual payment failed: " + failure.code()
        + (failure.message() == null ? "" : " (" + failure.message() + ")");
    periods.putUnpaid(new UnpaidPeriod(cycle, number, amount, unpaid.dueDate(),
        unpaid.staleAfterDays(), failure.message() != null ? failure.message() : failure.code()));
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(CollectionChanges.unpaid(current(), cycle, amount, number, failure.code(),
        failure.message(), HistoryEvent.PAYMENT_FAILED, false, Process.MANUAL_REPAYMENT,
        CollectionChanges.changeId(cycle, number, null), detail, now()));
    run.outcome("cycle " + cycle + " " + detail);
  }

  private Process processOf(int attempt) {
    return manual ? Process.MANUAL_REPAYMENT : SubscriptionChanges.process(attempt);
  }

  /** Acts on a payment event taken from the inbox; its meaning is re-read from the current state. */
  void onEvent(PaymentEvent event) {
    PeriodCollection.Effect effect = periods.effectOf(event);
    OpenPeriod period = periods.openFor(event);
    String source = event.type() + " " + event.eventId();
    switch (effect) {
      case SETTLE -> {
        OpenPeriod paid = periods.openForAnyAttempt(event);
        int attempt = periods.attemptOf(event, paid);
        String transactionId = event.transactionId() != null ? event.transactionId() : paid.transactionId();
        collected(paid.cycle(), attempt, transactionId, event.occurredAt(), Process.WEBHOOK, "settled");
      }
      case CONFIRM_SUCCESS -> confirmSuccess(periods.openForAnyAttempt(event), event, source);
      case FAIL -> enterDunning(period.cycle(), period.attempts(), codeOr(event.failureCode(), "charge_failed"),
          event.failureMessage(), false, false, period, Process.WEBHOOK, HistoryEvent.PAYMENT_FAILED,
          "failed", source, true);
      case RETURN_PENDING -> {
        returnedCharge(period, event.transactionId());
        enterDunning(period.cycle(), period.attempts(), codeOr(event.failureCode(), "charge_returned"),
            event.failureMessage(), false, false, period, Process.WEBHOOK, HistoryEvent.PAYMENT_RETURNED,
            "returned", source, true);
      }
      case RETURN_SETTLED -> returned(periods.settledFor(event), event);
      case RESOLVE_FAILED -> {
        if (period.state() == State.RESOLVING
            && periods.unverified(key(period.cycle(), period.attempts() + 1))) {
          // A lost run may have sent the next key: the gateway is asked about both before the end.
          periods.put(period.withSettleBy(now()));
          return;
        }
        if (period.state() == State.RESOLVING) {
          exhaust(period, period.attempts(), codeOr(event.failureCode(), "charge_failed"),
              event.failureMessage(), source);
          return;
        }
        periods.put(period.withOutcomeKnown());
        run.outcome("cycle " + period.cycle() + ": " + source + " says attempt "
            + period.attempts() + " failed; no lookup needed before the next attempt");
      }
      case NONE -> {
        if (periods.possibleDoubleCharge(event)) {
          // Never silent: money moved for a period that is already collected or no longer open.
          log.error("POSSIBLE DOUBLE CHARGE: {} reports a successful charge {} (key {}, cycle {}) of "
              + "subscription {}, but that period is not open; reconcile and refund if it was charged twice",
              source, event.transactionId(), event.idempotencyKey(), event.cycle(), event.subscriptionId());
          run.outcome("possible double charge: " + source + " (" + event.idempotencyKey() + ", "
              + event.transactionId() + ") succeeded for a period that is not open");
        } else {
          log.info("payment event has no effect: {}", periods.whyIgnored(event));
        }
      }
    }
  }

  /**
   * A success event for an attempt this run knows failed or came back: collected only if the
   * gateway's exact read says the money is there now; a return is remembered; no answer is left to
   * reconciliation, flagged, since collecting could credit a returned debit and ignoring it could
   * charge twice.
   */
  private void confirmSuccess(OpenPeriod period, PaymentEvent event, String source) {
    long cycle = period.cycle();
    int attempt = periods.attemptOf(event, period);
    ChargeLookup lookup = lookUp(cycle, attempt);
    ChargeLookup.Status status = lookup == null ? null : lookup.status();
    if (status == ChargeLookup.Status.SUCCEEDED) {
      String transactionId = lookup.transactionId() != null ? lookup.transactionId() : event.transactionId();
      collected(cycle, attempt, transactionId, event.occurredAt(), Process.WEBHOOK, "settled");
      return;
    }
    if (status == ChargeLookup.Status.RETURNED) {
      returnedCharge(cycle, attempt, lookup.transactionId(), amountOf(cycle));
    }
    if (status == null) {
      log.error("POSSIBLE DOUBLE CHARGE: {} reports a successful charge {} (key {}) of subscription {}"
          + " for an attempt recorded as failed, and the gateway does not answer; reconcile",
          source, event.transactionId(), event.idempotencyKey(), event.subscriptionId());
    }
    run.outcome("cycle " + cycle + ": " + source + " reports " + event.idempotencyKey()
        + " succeeded; the gateway says " + (status == null ? "nothing (no answer)" : status)
        + ": not collected");
  }

  private void retry(OpenPeriod period) {
    periods.put(period);
    long cycle = period.cycle();
    int attemptNumber = period.attempts() + 1;
    String suffix = null;
    if (period.outcomeUnknown()) {
      ChargeLookup lookup = lookUp(cycle, period.attempts());
      ChargeLookup.Status status = lookup == null ? null : lookup.status();
      if (status == ChargeLookup.Status.SUCCEEDED) {
        collected(cycle, period.attempts(), lookup.transactionId(), lookup.processedAt(),
            processOf(period.attempts()), "settled");
        return;
      }
      if (status == ChargeLookup.Status.PENDING) {
        pending(cycle, period.attempts(), period, lookup.transactionId(), false,
            processOf(period.attempts()), CollectionChanges.changeId(cycle, period.attempts(), "pending"));
        return;
      }
      if (status == null) {
        // No answer: sending the key again would count on the gateway still remembering it, which
        // it does for 24 hours only. Nothing is sent until the gateway can say what the key did.
        stillUnknown(period);
        return;
      }
      if (status == ChargeLookup.Status.FAILED || status == ChargeLookup.Status.RETURNED) {
        if (status == ChargeLookup.Status.RETURNED) {
          returnedCharge(period, lookup.transactionId());
        }
        periods.put(period = period.withOutcomeKnown());
      } else if (provenUnsent(period)) {
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
    Process process = processOf(attemptNumber);
    Attempt attempt = charge(cycle, attemptNumber);
    if (attempt.result() == null) {
      failedAttempt(cycle, attemptNumber, attempt.failure(), period, suffix);
    } else if (attempt.result().pending()) {
      pending(cycle, attemptNumber, period, attempt.result().transactionId(), false, process,
          CollectionChanges.changeId(cycle, attemptNumber, suffix));
    } else {
      ChargeResult charge = attempt.result();
      collected(cycle, attemptNumber, charge.transactionId(), charge.processedAt(), process, suffix);
    }
  }

  /**
   * A failed attempt. An outage or timeout leaves the outcome unknown: the gateway is asked about
   * the key first, and only an answer that the money did not move counts as a failure.
   */
  private void failedAttempt(long cycle, int attempt, ChargeFailure failure, OpenPeriod prior,
      String suffix) {
    ChargeFailure known = failure;
    boolean unknown = false;
    String source = null;
    if (failure.outcomeUnknown()) {
      ChargeLookup lookup = lookUp(cycle, attempt);
      if (lookup == null) {
        unknown = true;
      } else {
        switch (lookup.status()) {
          case SUCCEEDED -> {
            if (prior == null) {
              recordFirstPaid(cycle, lookup);
            } else {
              collected(cycle, attempt, lookup.transactionId(), lookup.processedAt(),
                  processOf(attempt), suffix);
            }
            return;
          }
          case PENDING -> {
            pending(cycle, attempt, prior, lookup.transactionId(), prior == null,
                processOf(attempt), CollectionChanges.changeId(cycle, attempt, suffix));
            return;
          }
          case FAILED, RETURNED -> {
            if (lookup.status() == ChargeLookup.Status.RETURNED) {
              returnedCharge(cycle, attempt, lookup.transactionId(), amountOf(cycle));
            }
            known = new ChargeFailure(true,
                codeOr(lookup.failureCode(), ChargeFailure.DEFAULT_DECLINE_CODE),
                lookup.failureMessage() != null ? lookup.failureMessage() : failure.message());
          }
          case NOT_FOUND -> {
            unknown = true;
            source = "lookup: the gateway has no charge for " + key(cycle, attempt)
                + " yet; outcome unknown, asked again before the next attempt";
          }
        }
      }
    }
    if (unknown && source == null) {
      source = "lookup failed: outcome unknown";
    }
    if (unknown && suffix != null) {
      // A re-sent key still got no answer: nothing new to record, the next date asks again.
      stillUnknown(prior);
      return;
    }
    enterDunning(cycle, attempt, known.code(), known.message(), known.hard(), unknown, prior,
        processOf(attempt), HistoryEvent.PAYMENT_FAILED, suffix, source, false);
  }

  /**
   * Records the period unpaid and plans its next retry; with none left, applies the policy's final
   * outcome. The policy is snapshotted the first time the period fails and kept from then on.
   *
   * @param suffix null when this records an attempt (change "charge-N"), else the later step
   * @param source what reported the failure, for the log (null: the attempt itself)
   * @param late the failure of a charge that was pending is learned only now: the retry dates that
   *     passed while it settled are not used up (see {@link DunningSchedule})
   */
  private void enterDunning(long cycle, int attempts, String code, String message, boolean hard,
      boolean unknown, OpenPeriod prior, Process process, HistoryEvent event, String suffix,
      String source, boolean late) {
    enterDunning(cycle, attempts, code, message, hard, unknown, prior, process, event, suffix, source,
        late, amountOf(cycle));
  }

  /** @param amount what the period is charged from now on */
  private void enterDunning(long cycle, int attempts, String code, String message, boolean hard,
      boolean unknown, OpenPeriod prior, Process process, HistoryEvent event, String suffix,
      String source, boolean late, Money amount) {
    if (current().status().isTerminal()) {
      closeUnpaid(cycle, attempts, code, message, unknown, process, event, suffix, source);
      return;
    }
    BillingSchedule schedule = current().schedule();
    boolean returned = event == HistoryEvent.PAYMENT_RETURNED;
    DunningPolicy policy = prior != null && prior.policy() != null ? prior.policy() : snapshotPolicy(cycle);
    LocalDate from = prior != null && prior.dunningFrom() != null ? prior.dunningFrom()
        : returned ? schedule.dateAt(now()) : schedule.dueDate(cycle);
    int used = late && prior != null
        ? DunningSchedule.usedBeforeLateFailure(policy, prior.retriesUsed())
        : DunningSchedule.usedAt(schedule, from, policy, prior == null ? 0 : prior.retriesUsed(), now());
    boolean usedUp = hard || used >= policy.retryAfterDays().size();
    // An unknown outcome never ends dunning: the key is resolved by the gateway first.
    boolean resolve = usedUp && unknown;
    boolean exhausted = usedUp && !unknown;
    Instant next = usedUp ? null : DunningSchedule.retryAt(schedule, from, policy, used);
    if (next != null && next.isBefore(now())) {
      next = now(); // a late failure: its next unused date has passed, so the retry is at once
    }
    String what = (returned ? "payment returned: " : "payment failed: ") + code
        + (message == null ? "" : " (" + message + ")");
    String plan = exhausted
        ? "; dunning exhausted after " + attempts + (attempts == 1 ? " attempt" : " attempts")
            + (hard ? " (hard decline: no retries)" : "") + ": " + policy.finalOutcome()
        : resolve ? "; dunning schedule used up with the outcome unknown: the gateway is asked"
            + " before the final outcome"
        : "; next retry " + schedule.dateAt(next);
    HistoryEvent recorded = exhausted && event == HistoryEvent.PAYMENT_FAILED ? HistoryEvent.DUNNING_EXHAUSTED : event;
    run.phase(Phase.RECORDING_PAYMENT);
    boolean advance = prior == null && !returned && cycle == current().cycle();
    RecordInput change = CollectionChanges.unpaid(current(), cycle, amount, attempts, code, message, recorded, advance,
        process, CollectionChanges.changeId(cycle, attempts, suffix),
        what + (source == null ? "" : " [" + source + "]") + plan, now());
    // The period's new state is in place before the record is awaited.
    if (exhausted) {
      periods.remove(cycle);
      if (policy.finalOutcome() != DunningPolicy.FinalOutcome.CANCEL) {
        periods.putUnpaid(new UnpaidPeriod(cycle, attempts, amount,
            schedule.dueDate(cycle), policy.staleAfterDays(), message != null ? message : code));
      }
    } else if (resolve) {
      periods.put(OpenPeriod.dunning(cycle, attempts, true, policy, from, used, code, message,
          amount).resolving(now().plus(DunningSchedule.RESOLVE_AFTER)));
    } else {
      periods.put(OpenPeriod.dunning(cycle, attempts, unknown, policy, from, used, code, message,
          amount));
    }
    run.record(change);
    // An unknown outcome is no news for the customer: the money may well have moved.
    if (!unknown) {
      run.notice(failureNotice(cycle, (returned ? "payment-returned-" : "payment-failed-") + attempts
              + (RESENT.equals(suffix) ? "-" + RESENT : ""),
          next == null ? null : schedule.dateAt(next), message != null ? message : code));
    }
    run.outcome("cycle " + cycle + " " + what + (source == null ? "" : " [" + source + "]") + plan);
    log.warn("cycle {} of {} unpaid: {}{}", cycle, current().subscriptionId(), code, plan);
    if (exhausted) {
      finalOutcome(cycle, attempts, policy);
    }
  }

  /**
   * Settle-only mode after a cancellation: a failure (event or lookup) is recorded and the period
   * closed, with no dunning, no notice and the subscription left CANCELLED. A NOT_FOUND cannot be
   * answered by re-sending the key (no new charges after a cancellation), so it is closed too and
   * left to reconciliation.
   */
  private void closeUnpaid(long cycle, int attempts, String code, String message, boolean unknown,
      Process process, HistoryEvent event, String suffix, String source) {
    String what = (event == HistoryEvent.PAYMENT_RETURNED ? "payment returned: " : "payment failed: ")
        + code + (message == null ? "" : " (" + message + ")");
    String detail = what + (source == null ? "" : " [" + source + "]")
        + "; subscription cancelled: no retry";
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change = CollectionChanges.unpaid(current(), cycle, amountOf(cycle), attempts, code, message, event,
        false, process, CollectionChanges.changeId(cycle, attempts, suffix), detail, now());
    periods.remove(cycle);
    run.record(change);
    run.outcome("cycle " + cycle + " " + detail);
    if (unknown) {
      log.error("cycle {} of cancelled subscription {}: outcome of {} still unknown; closed unpaid, "
          + "reconcile with the gateway", cycle, current().subscriptionId(), key(cycle, attempts));
    }
  }

  /**
   * After a cancellation only charges already made are followed up: a pending settlement keeps
   * waiting, and an attempt whose outcome is unknown waits the settlement timeout for an event and
   * is then looked up instead of being charged again; a next key that a lost run may have sent is
   * looked up too. Periods known to be unpaid are dropped (they are recorded ERROR already).
   * Returns whether any period is left to settle.
   */
  boolean keepOnlySettling() {
    for (OpenPeriod period : periods.openPeriods()) {
      if (period.state() == State.PENDING_SETTLEMENT) {
        continue;
      }
      if (periods.unverified(key(period.cycle(), period.attempts() + 1))) {
        // A lost run may have sent the next key: it is looked up (with an unknown last key)
        // before the period is closed, never dropped unasked.
        periods.put(period.resolving(period.outcomeUnknown()
            ? now().plus(DunningSchedule.SETTLEMENT_TIMEOUT) : now()));
      } else if (period.outcomeUnknown()) {
        periods.put(OpenPeriod.pending(period.cycle(), period.attempts(), period.policy(),
            period.dunningFrom(), period.retriesUsed(), now().plus(DunningSchedule.SETTLEMENT_TIMEOUT),
            period.transactionId(), period.amount()));
      } else {
        periods.remove(period.cycle());
      }
    }
    return !periods.openPeriods().isEmpty();
  }

  /** The lookup before a retry got no answer either: this retry date is used up without a charge. */
  private void stillUnknown(OpenPeriod period) {
    BillingSchedule schedule = current().schedule();
    int used = DunningSchedule.usedAt(schedule, period.dunningFrom(), period.policy(), period.retriesUsed(), now());
    OpenPeriod updated = period.withRetriesUsed(used);
    String key = period.lastKey(current().subscriptionId());
    if (!DunningSchedule.exhausted(updated)) {
      periods.put(updated);
      run.outcome("cycle " + period.cycle() + ": no answer about " + key + " yet; not charging again"
          + " before it comes; next try " + schedule.dateAt(DunningSchedule.nextRetryAt(schedule, updated)));
      return;
    }
    resolveLater(updated, "no answer from the gateway about " + key);
  }

  /**
   * The dunning schedule is used up while the last attempt's outcome is unknown: nothing is charged
   * any more, and the final outcome waits until the gateway says what the key did. Applying it now
   * would guess: a CANCEL could end a subscription that paid, and a late success would find no
   * open period to credit.
   */
  private void resolveLater(OpenPeriod period, String why) {
    Instant askAt = now().plus(DunningSchedule.RESOLVE_AFTER);
    periods.put(period.resolving(askAt));
    run.outcome("cycle " + period.cycle() + ": " + why + "; dunning schedule used up, the final "
        + "outcome waits for the gateway's answer (asking at " + askAt + ")");
    log.warn("cycle {} of {}: outcome of {} unknown at the end of dunning; asking the gateway at {}",
        period.cycle(), current().subscriptionId(), period.lastKey(current().subscriptionId()), askAt);
  }

  /**
   * A period whose dunning schedule is used up with a key's outcome unknown: its last attempt's,
   * then the next attempt's if a lost run may have sent it. Only keys are looked up, nothing is
   * sent; the period is judged (collected, pending, exhausted or left owed) once every key that
   * may have moved money has been answered for.
   */
  private void resolveByLookup(OpenPeriod period) {
    long cycle = period.cycle();
    int attempts = period.attempts();
    ChargeLookup last = null;
    if (period.outcomeUnknown()) {
      last = lookUp(cycle, attempts);
      if (last == null) {
        askAgainLater(period, key(cycle, attempts));
        return;
      }
      switch (last.status()) {
        case SUCCEEDED -> {
          collected(cycle, attempts, last.transactionId(), last.processedAt(), Process.RECONCILIATION,
              "settled");
          return;
        }
        case PENDING -> {
          pending(cycle, attempts, period, last.transactionId(), false, Process.RECONCILIATION,
              CollectionChanges.changeId(cycle, attempts, "pending"));
          return;
        }
        case RETURNED -> returnedCharge(period, last.transactionId());
        case FAILED, NOT_FOUND -> { }
      }
    }
    String source = "lookup of " + key(cycle, attempts);
    if (periods.unverified(key(cycle, attempts + 1))) {
      Attempt next = sentByLostRun(cycle, attempts + 1);
      if (next != null && next.failure() != null && next.failure().outcomeUnknown()) {
        askAgainLater(period, key(cycle, attempts + 1));
        return;
      }
      if (next != null) {
        lostRunAttempt(period, next);
        return;
      }
    }
    if (last == null && chargedNewMethod(period, period.failureCode(), period.failureMessage())) {
      return;
    }
    if (last == null) {
      // The last attempt is known to have failed and no later key was sent: the record's
      // judgement stands, nothing new to record.
      periods.remove(cycle);
      if (!current().status().isTerminal()) {
        periods.putUnpaid(new UnpaidPeriod(cycle, attempts, amountOf(cycle),
            current().schedule().dueDate(cycle), period.policy().staleAfterDays(),
            period.failureMessage() != null ? period.failureMessage() : period.failureCode()));
      }
      run.outcome("cycle " + cycle + ": the gateway has no charge for " + key(cycle, attempts + 1)
          + "; left unpaid after " + attempts + (attempts == 1 ? " attempt" : " attempts"));
      return;
    }
    String code = last.status() == ChargeLookup.Status.NOT_FOUND ? CHARGE_NOT_MADE
        : codeOr(last.failureCode(), "charge_failed");
    if (chargedNewMethod(period, code, last.failureMessage())) {
      return;
    }
    switch (last.status()) {
      case FAILED, RETURNED -> exhaust(period, attempts, codeOr(last.failureCode(), "charge_failed"),
          last.failureMessage(), source);
      // The look-up lists by creation time, so NOT_FOUND, an hour after the last send, is proof.
      default -> exhaust(period, attempts, CHARGE_NOT_MADE,
          "the gateway has no charge for " + key(cycle, attempts), source);
    }
  }

  /**
   * A new payment method came while the period was RESOLVING: now that the gateway says no money
   * moved, the new method is charged at once (attempt n+1), as a period in dunning would be; its
   * failure ends dunning, the schedule being used up. Never before the answer: the unknown key
   * could still have collected. Not while paused or after a cancellation.
   */
  private boolean chargedNewMethod(OpenPeriod period, String code, String message) {
    SubscriptionStatus status = current().status();
    if (!period.retryNow() || status.isTerminal() || status == SubscriptionStatus.PAUSED) {
      return false;
    }
    retry(OpenPeriod.dunning(period.cycle(), period.attempts(), false, period.policy(),
        period.dunningFrom(), period.retriesUsed(), code, message, period.amount()));
    return true;
  }

  private void askAgainLater(OpenPeriod period, String key) {
    periods.put(period.resolving(now().plus(DunningSchedule.LOOKUP_RETRY_AFTER)));
    run.outcome("cycle " + period.cycle() + ": the gateway did not answer about " + key
        + "; asking again " + DunningSchedule.LOOKUP_RETRY_AFTER.toDays() + " day later");
  }

  /** The next attempt of a period whose schedule is used up, sent by a lost run: its outcome stands. */
  private void lostRunAttempt(OpenPeriod period, Attempt attempt) {
    long cycle = period.cycle();
    int number = period.attempts() + 1;
    ChargeResult charge = attempt.result();
    if (charge != null && charge.pending()) {
      pending(cycle, number, period, charge.transactionId(), false, Process.RECONCILIATION,
          CollectionChanges.changeId(cycle, number, null));
    } else if (charge != null) {
      collected(cycle, number, charge.transactionId(), charge.processedAt(), Process.RECONCILIATION,
          null);
    } else {
      exhaust(period, number, attempt.failure().code(), attempt.failure().message(),
          "lookup of " + key(cycle, number) + ", sent by a lost run");
    }
  }

  /**
   * Dunning ends unpaid now that the last attempt ({@code attempts}) is known not to have
   * collected. After a cancellation only the period is recorded (settle-only).
   */
  private void exhaust(OpenPeriod period, int attempts, String code, String message, String source) {
    long cycle = period.cycle();
    if (current().status().isTerminal()) {
      closeUnpaid(cycle, attempts, code, message, false, Process.RECONCILIATION,
          HistoryEvent.PAYMENT_FAILED, "exhausted", source);
      return;
    }
    Money amount = amountOf(cycle);
    String detail = "payment failed: " + code + (message == null ? "" : " (" + message + ")")
        + (source == null ? "" : " [" + source + "]") + "; dunning exhausted after "
        + attempts + (attempts == 1 ? " attempt" : " attempts") + ": "
        + period.policy().finalOutcome();
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change = CollectionChanges.unpaid(current(), cycle, amount, attempts, code,
        message, HistoryEvent.DUNNING_EXHAUSTED, false, Process.RETRY,
        CollectionChanges.changeId(cycle, attempts, "exhausted"), detail, now());
    periods.remove(cycle);
    if (period.policy().finalOutcome() != DunningPolicy.FinalOutcome.CANCEL) {
      periods.putUnpaid(new UnpaidPeriod(cycle, attempts, amount,
          current().schedule().dueDate(cycle), period.policy().staleAfterDays(),
          message != null ? message : code));
    }
    run.record(change);
    run.outcome("cycle " + cycle + " " + detail);
    finalOutcome(cycle, attempts, period.policy());
  }

  private void settleByLookup(OpenPeriod period) {
    long cycle = period.cycle();
    ChargeLookup lookup = lookUp(cycle, period.attempts());
    if (lookup == null) {
      periods.put(period.withSettleBy(now().plus(DunningSchedule.LOOKUP_RETRY_AFTER)));
      run.outcome("cycle " + cycle + " still settling; the gateway did not answer, asking again "
          + DunningSchedule.LOOKUP_RETRY_AFTER.toDays() + " day later");
      return;
    }
    String source = "lookup of " + period.lastKey(current().subscriptionId());
    switch (lookup.status()) {
      case SUCCEEDED -> collected(cycle, period.attempts(),
          lookup.transactionId() != null ? lookup.transactionId() : period.transactionId(),
          lookup.processedAt(), Process.RECONCILIATION, "settled");
      case PENDING -> {
        periods.put(period.withSettleBy(now().plus(DunningSchedule.SETTLEMENT_TIMEOUT)));
        run.outcome("cycle " + cycle + " still settling according to the gateway");
      }
      case FAILED -> enterDunning(cycle, period.attempts(), codeOr(lookup.failureCode(), "charge_failed"),
          lookup.failureMessage(), false, false, period, Process.RECONCILIATION,
          HistoryEvent.PAYMENT_FAILED, "failed", source, true);
      // The gateway accepted this charge, so NOT_FOUND is its search lagging, not a failure: the
      // period is duned with its outcome unknown, and the next step re-sends the same key.
      case NOT_FOUND -> enterDunning(cycle, period.attempts(), CHARGE_NOT_FOUND,
          lookup.failureMessage(), false, true, period, Process.RECONCILIATION,
          HistoryEvent.PAYMENT_FAILED, "failed", source + ": outcome unknown", true);
      case RETURNED -> {
        returnedCharge(period, lookup.transactionId());
        enterDunning(cycle, period.attempts(), codeOr(lookup.failureCode(), "charge_returned"),
            lookup.failureMessage(), false, false, period, Process.RECONCILIATION,
            HistoryEvent.PAYMENT_RETURNED, "returned", source, true);
      }
    }
  }

  /**
   * A settled charge came back: its period is ERROR again, owing what was collected (not today's
   * price, which a plan change may have moved), and dunning starts from today.
   */
  private void returned(SettledCharge charge, PaymentEvent event) {
    periods.returned(charge);
    Money owed = charge.amount() != null ? charge.amount() : amountOf(charge.cycle());
    // Every attempt so far, the returned one included, used a retry: a debit that is always
    // returned ends its dunning like one that is always declined, never starts it over.
    DunningPolicy policy = snapshotPolicy(charge.cycle());
    int used = Math.min(charge.attempt() - 1, policy.retryAfterDays().size());
    OpenPeriod counted = OpenPeriod.dunning(charge.cycle(), charge.attempt(), false, policy,
        current().schedule().dateAt(now()), used, null, null, owed);
    enterDunning(charge.cycle(), charge.attempt(), codeOr(event.failureCode(), "charge_returned"),
        event.failureMessage(), false, false, counted, Process.WEBHOOK, HistoryEvent.PAYMENT_RETURNED,
        "returned", event.type() + " " + event.eventId(), false, owed);
  }

  /**
   * The gateway says (by event or lookup) that the latest attempt of {@code period} was returned,
   * while the workflow never heard it settle: remembered before anything is recorded, so that its
   * success event, which may still be on its way, cannot collect the period, and a later return
   * event about it does not record the return a second time.
   */
  private void returnedCharge(OpenPeriod period, String transactionId) {
    returnedCharge(period.cycle(), period.attempts(),
        transactionId != null ? transactionId : period.transactionId(), period.amount());
  }

  private void returnedCharge(long cycle, int attempt, String transactionId, Money amount) {
    periods.returned(new SettledCharge(cycle, attempt, key(cycle, attempt), transactionId, amount));
  }

  private void pending(long cycle, int attempt, OpenPeriod prior, String transactionId, boolean advance,
      Process process, String changeId) {
    Instant settleBy = now().plus(DunningSchedule.SETTLEMENT_TIMEOUT);
    run.phase(Phase.RECORDING_PAYMENT);
    // The period is pending before the record is awaited: state and store never disagree at a safe point.
    Money amount = amountOf(cycle);
    RecordInput change = CollectionChanges.pending(current(), cycle, amount, attempt, transactionId,
        advance, process, changeId, "charge of " + amount + " accepted, settling: transaction " + transactionId, now());
    periods.put(OpenPeriod.pending(cycle, attempt,
        prior == null ? null : prior.policy(), prior == null ? null : prior.dunningFrom(),
        usedByAttempt(prior), settleBy, transactionId, amount));
    run.record(change);
    run.outcome("cycle " + cycle + " charge " + transactionId + " pending settlement; asking the gateway "
        + settleBy + " if no event comes");
  }

  /** A period collected after its first attempt (retry, settlement, lookup): no move to the next cycle. */
  private void collected(long cycle, int attempt, String transactionId, Instant processedAt,
      Process process, String suffix) {
    run.phase(Phase.RECORDING_PAYMENT);
    Money amount = amountOf(cycle);
    RecordInput change = CollectionChanges.collected(current(), cycle, amount, attempt, transactionId,
        processedAt, statusAfterCollecting(cycle), process, CollectionChanges.changeId(cycle, attempt, suffix),
        "charged " + amount + ", transaction " + transactionId + " (attempt " + attempt + ")", now());
    // Open -> settled in one step before the record is awaited, so no state is in between.
    periods.remove(cycle);
    periods.removeUnpaid(cycle);
    periods.settled(new SettledCharge(cycle, attempt, key(cycle, attempt), transactionId, amount));
    run.record(change);
    run.outcome("cycle " + cycle + " charged " + amount + " on attempt " + attempt + ": "
        + transactionId);
  }

  /** Attempt 1 got no answer, but the gateway says it went through: the usual first-attempt record. */
  private void recordFirstPaid(long cycle, ChargeLookup lookup) {
    ChargeResult charge = new ChargeResult(lookup.transactionId(), lookup.processedAt(), true);
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput paid = SubscriptionChanges.paid(current(), 1, charge, statusAfterCollecting(cycle), now());
    periods.settled(new SettledCharge(cycle, 1, key(cycle, 1), charge.transactionId(), paid.period().amount()));
    run.record(paid);
    run.outcome("cycle " + cycle + " charged " + current().price() + ": " + charge.transactionId()
        + " (no answer from the charge; found by lookup)");
  }

  /** Retry dates used up when an attempt is made now: the ones that have come, attempted or not. */
  private int usedByAttempt(OpenPeriod prior) {
    if (prior == null || prior.policy() == null || prior.dunningFrom() == null) {
      return prior == null ? 0 : prior.retriesUsed();
    }
    return DunningSchedule.usedAt(current().schedule(), prior.dunningFrom(), prior.policy(),
        prior.retriesUsed(), now());
  }

  private void finalOutcome(long cycle, int attempts, DunningPolicy policy) {
    switch (policy.finalOutcome()) {
      case CANCEL -> run.cancelAfterDunning("payment for cycle " + cycle + " not collected after "
          + attempts + (attempts == 1 ? " attempt" : " attempts"));
      case PAUSE -> run.pauseAfterDunning("payment for cycle " + cycle + " not collected after "
          + attempts + (attempts == 1 ? " attempt" : " attempts"));
      case LEAVE_UNPAID -> { }
    }
  }

  private Attempt charge(long cycle, int attempt) {
    String key = key(cycle, attempt);
    if (periods.unverified(key)) {
      Attempt found = sentByLostRun(cycle, attempt);
      if (found != null) {
        return found;
      }
    }
    Subscription sub = current();
    ChargeInput input = new ChargeInput(sub.accountId(), sub.subscriptionId(), cycle, attempt,
        amountOf(cycle), sub.paymentMethod(), key(cycle, attempt),
        sub.sku() + " subscription, period " + cycle + " due " + sub.schedule().dueDate(cycle));
    periods.sending(cycle, key, sub.paymentMethod());
    try {
      return new Attempt(payments.charge(input), null);
    } catch (ActivityFailure e) {
      return new Attempt(null, ChargeFailure.of(e));
    } finally {
      periods.sendEnded(key, now());
    }
  }

  /**
   * Whether a NOT_FOUND for the period's unknown last key proves it made no charge, so that the
   * next attempt may take a new key. It does from a list read made {@link
   * DunningSchedule#RESOLVE_AFTER} after the key's send ended (no request of it still in flight),
   * and when a lost run may already have sent the next key (the key is then never sent again; the
   * next one is looked up before it is sent, as a restart assumes the lost run's sends have
   * ended). It does not for a charge the gateway once accepted (its listing is what failed), nor
   * right after the send (a new payment method, a manual payment): the same key is sent again.
   */
  private boolean provenUnsent(OpenPeriod period) {
    if (CHARGE_NOT_FOUND.equals(period.failureCode())) {
      return false;
    }
    if (periods.unverified(key(period.cycle(), period.attempts() + 1))) {
      return true;
    }
    Instant ended = periods.sendEndedAt(key(period.cycle(), period.attempts()));
    return ended != null && !now().isBefore(ended.plus(DunningSchedule.RESOLVE_AFTER));
  }

  /**
   * A run restarted from the record asks the gateway about a key the lost run may have sent
   * before sending it: the gateway's own replay of a key is forgotten after 24 hours, and a repair
   * can come later than that. Returns the attempt as the lost run's charge ended, or null when the
   * key was never sent; no answer is an unknown outcome, so nothing is sent.
   */
  private Attempt sentByLostRun(long cycle, int attempt) {
    ChargeLookup lookup = lookUp(cycle, attempt);
    if (lookup == null) {
      return new Attempt(null, new ChargeFailure(false, SubscriptionChanges.GATEWAY_UNAVAILABLE,
          "no answer from the gateway about " + key(cycle, attempt) + ", which a lost run may have sent"));
    }
    periods.verified(key(cycle, attempt));
    return switch (lookup.status()) {
      case NOT_FOUND -> null;
      case SUCCEEDED -> new Attempt(new ChargeResult(lookup.transactionId(), lookup.processedAt(), true), null);
      case PENDING -> new Attempt(
          new ChargeResult(lookup.transactionId(), lookup.processedAt(), true, true), null);
      case FAILED -> new Attempt(null, new ChargeFailure(true,
          codeOr(lookup.failureCode(), ChargeFailure.DEFAULT_DECLINE_CODE), lookup.failureMessage()));
      case RETURNED -> {
        // Its money came back: a late success event of this charge must not collect the period.
        returnedCharge(cycle, attempt, lookup.transactionId(), amountOf(cycle));
        yield new Attempt(null, new ChargeFailure(true,
            codeOr(lookup.failureCode(), "charge_returned"), lookup.failureMessage()));
      }
    };
  }

  /**
   * What the gateway knows about an attempt's key; null when it does not answer either. Asked under
   * the payment method the key was sent to, never today's: a gateway lists charges by customer, so
   * after a change of method the key would read NOT_FOUND and be judged never made.
   */
  private ChargeLookup lookUp(long cycle, int attempt) {
    String key = key(cycle, attempt);
    try {
      return lookups.lookUpCharge(new ChargeLookupInput(current().subscriptionId(), cycle, key,
          periods.sentWith(key), sentNoEarlierThan(cycle)));
    } catch (ActivityFailure e) {
      log.warn("lookup of {} failed; its outcome stays unknown", key, e);
      return null;
    }
  }

  /**
   * A lower bound of when any key of {@code cycle} was sent. The schedule is one anchor, so a
   * billing-day change re-dates past cycles too, by less than a month either way: a bound taken
   * from today's due date alone could fall after a send and make the look-up miss a real charge.
   */
  private Instant sentNoEarlierThan(long cycle) {
    BillingSchedule schedule = current().schedule();
    return schedule.startOfDay(schedule.dueDate(cycle)).minus(SCHEDULE_DRIFT);
  }

  /** More than any billing-day change moves a cycle's due date. */
  static final java.time.Duration SCHEDULE_DRIFT = java.time.Duration.ofDays(62);

  private DunningPolicy snapshotPolicy(long cycle) {
    try {
      DunningPolicy policy = policies.dunningPolicy(new DunningPolicyRequest(current().subscriptionId(), cycle));
      if (policy != null) {
        return policy;
      }
    } catch (ActivityFailure e) {
      log.warn("dunning policy unreadable for cycle {} of {}; using the default", cycle,
          current().subscriptionId(), e);
    }
    return DunningPolicy.DEFAULT;
  }

  private NotifyCustomerInput failureNotice(long cycle, String kind, LocalDate nextRetry, String reason) {
    Subscription sub = current();
    return new NotifyCustomerInput(NotifyCustomerInput.Kind.PAYMENT_FAILED,
        BillingIds.messageId(sub.subscriptionId(), cycle, kind), sub.accountId(), sub.subscriptionId(),
        cycle, sub.email(), sub.sku(), amountOf(cycle), nextRetry, sub.paymentMethod().mask(), reason,
        sub.schedule().timeZone(), now(), sub.locale());
  }

  /**
   * Failure code of a last attempt the gateway proved it never made: a known outcome, so a run
   * restarted from the record does not resolve it (and apply the final outcome) again.
   */
  static final String CHARGE_NOT_MADE = "charge_not_made";

  /** Failure code of a pending charge the gateway could not find: its outcome stays unknown. */
  static final String CHARGE_NOT_FOUND = "charge_not_found";

  /** Change-id suffix of the outcome of a key sent again after its first send got no answer. */
  static final String RESENT = "resent";

  private SubscriptionStatus statusAfterCollecting(long cycle) {
    if (current().status().isTerminal() || current().status() == SubscriptionStatus.PAUSED) {
      // Money settling after a cancellation never revives the subscription, nor ends a pause.
      return current().status();
    }
    return periods.dunningOtherThan(cycle) ? SubscriptionStatus.PAST_DUE : SubscriptionStatus.ACTIVE;
  }

  /**
   * What a period is charged: fixed by its first attempt (price plus balance at that time), so a
   * plan change or a credit never alters a period already being collected.
   */
  Money amountOf(long cycle) {
    OpenPeriod open = periods.open(cycle);
    if (open != null && open.amount() != null) {
      return open.amount();
    }
    UnpaidPeriod unpaid = periods.unpaid(cycle);
    if (unpaid != null && unpaid.amount() != null) {
      return unpaid.amount();
    }
    return cycle == current().cycle() ? current().amountDue() : current().price();
  }

  private String key(long cycle, int attempt) {
    return BillingIds.chargeKey(current().subscriptionId(), cycle, attempt);
  }

  private Subscription current() {
    return run.current();
  }

  private static String codeOr(String code, String fallback) {
    return code == null || code.isBlank() ? fallback : code;
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
