package dev.billing.workflows.subscription;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeResult;
import dev.billing.workflows.subscription.ChargeAttempts.Attempt;
import io.temporal.workflow.Workflow;
import java.time.Instant;

/**
 * Periods whose outcome waits for the gateway: a settlement that timed out, a schedule used up with
 * a key's outcome unknown, a key a lost run may have sent, and what is left to settle after a
 * cancellation. Only keys are looked up here; nothing new is sent, except to a new payment method
 * once the gateway proves the last key moved no money.
 */
final class Resolution {
  private final RunState run;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;
  private final Settlement settlement;
  private final Dunning dunning;
  private final PaymentCollector collector;

  Resolution(
      RunState run,
      ChargeAttempts charging,
      Settlement settlement,
      Dunning dunning,
      PaymentCollector collector) {
    this.run = run;
    this.periods = run.periods;
    this.charging = charging;
    this.settlement = settlement;
    this.dunning = dunning;
    this.collector = collector;
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
      if (periods.keys.unverified(charging.key(period.cycle(), period.attempts() + 1))) {
        // A lost run may have sent the next key: it is looked up (with an unknown last key)
        // before the period is closed, never dropped unasked.
        periods.put(
            period.resolving(
                period.outcomeUnknown() ? now().plus(DunningSchedule.SETTLEMENT_TIMEOUT) : now()));
      } else if (period.outcomeUnknown()) {
        periods.put(
            OpenPeriod.pending(
                period.cycle(),
                period.attempts(),
                period.policy(),
                period.dunningFrom(),
                period.retriesUsed(),
                now().plus(DunningSchedule.SETTLEMENT_TIMEOUT),
                period.transactionId(),
                period.amount()));
      } else {
        periods.remove(period.cycle());
      }
    }
    return !periods.openPeriods().isEmpty();
  }

  /**
   * A period whose dunning schedule is used up with a key's outcome unknown: its last attempt's,
   * then the next attempt's if a lost run may have sent it. Only keys are looked up, nothing is
   * sent; the period is judged (collected, pending, exhausted or left owed) once every key that may
   * have moved money has been answered for.
   */
  void resolveByLookup(OpenPeriod period) {
    long cycle = period.cycle();
    int attempts = period.attempts();
    ChargeLookup last = null;
    if (period.outcomeUnknown()) {
      last = charging.lookUp(cycle, attempts);
      if (last == null) {
        askAgainLater(period, charging.key(cycle, attempts));
        return;
      }
      switch (last.status()) {
        case SUCCEEDED -> {
          settlement.collected(
              cycle,
              attempts,
              last.transactionId(),
              last.processedAt(),
              Process.RECONCILIATION,
              "settled");
          return;
        }
        case PENDING -> {
          settlement.pending(
              cycle,
              attempts,
              period,
              last.transactionId(),
              false,
              Process.RECONCILIATION,
              CollectionChanges.changeId(cycle, attempts, "pending"));
          return;
        }
        case RETURNED -> charging.returnedCharge(period, last.transactionId());
        case FAILED, NOT_FOUND -> {}
      }
    }
    String source = "lookup of " + charging.key(cycle, attempts);
    if (periods.keys.unverified(charging.key(cycle, attempts + 1))) {
      Attempt next = charging.sentByLostRun(cycle, attempts + 1);
      if (next != null && next.failure() != null && next.failure().outcomeUnknown()) {
        askAgainLater(period, charging.key(cycle, attempts + 1));
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
    if (last == null && period.policy().expires() && !current().status().isTerminal()) {
      // A first payment known to have failed, its schedule used up (a run restarted from the
      // record): nothing is owed, the subscription expires.
      dunning.exhaust(
          period,
          attempts,
          ChargeAttempts.codeOr(period.failureCode(), "charge_failed"),
          period.failureMessage(),
          source);
      return;
    }
    if (last == null) {
      // The last attempt is known to have failed and no later key was sent: the record's
      // judgement stands, nothing new to record.
      periods.remove(cycle);
      if (!current().status().isTerminal()) {
        periods.putUnpaid(
            new UnpaidPeriod(
                cycle,
                attempts,
                charging.amountOf(cycle),
                current().schedule().dueDate(cycle),
                period.policy().staleAfterDays(),
                period.failureMessage() != null ? period.failureMessage() : period.failureCode()));
      }
      run.outcome(
          "cycle "
              + cycle
              + ": the gateway has no charge for "
              + charging.key(cycle, attempts + 1)
              + "; left unpaid after "
              + attempts
              + (attempts == 1 ? " attempt" : " attempts"));
      return;
    }
    String code =
        last.status() == ChargeLookup.Status.NOT_FOUND
            ? SubscriptionChanges.CHARGE_NOT_MADE
            : ChargeAttempts.codeOr(last.failureCode(), "charge_failed");
    if (chargedNewMethod(period, code, last.failureMessage())) {
      return;
    }
    switch (last.status()) {
      case FAILED, RETURNED ->
          dunning.exhaust(
              period,
              attempts,
              ChargeAttempts.codeOr(last.failureCode(), "charge_failed"),
              last.failureMessage(),
              source);
      // The look-up lists by creation time, so NOT_FOUND, an hour after the last send, is proof.
      default ->
          dunning.exhaust(
              period,
              attempts,
              SubscriptionChanges.CHARGE_NOT_MADE,
              "the gateway has no charge for " + charging.key(cycle, attempts),
              source);
    }
  }

  /**
   * A new payment method came while the period was RESOLVING: now that the gateway says no money
   * moved, the new method is charged at once (attempt n+1), as a period in dunning would be; its
   * failure ends dunning, the schedule being used up. Never before the answer: the unknown key
   * could still have collected. Not while paused or after a cancellation.
   */
  boolean chargedNewMethod(OpenPeriod period, String code, String message) {
    SubscriptionStatus status = current().status();
    if (!period.retryNow() || status.isTerminal() || status == SubscriptionStatus.PAUSED) {
      return false;
    }
    collector.retry(
        OpenPeriod.dunning(
            period.cycle(),
            period.attempts(),
            false,
            period.policy(),
            period.dunningFrom(),
            period.retriesUsed(),
            code,
            message,
            period.amount()));
    return true;
  }

  void askAgainLater(OpenPeriod period, String key) {
    periods.put(period.resolving(now().plus(DunningSchedule.LOOKUP_RETRY_AFTER)));
    run.outcome(
        "cycle "
            + period.cycle()
            + ": the gateway did not answer about "
            + key
            + "; asking again "
            + DunningSchedule.LOOKUP_RETRY_AFTER.toDays()
            + " day later");
  }

  /**
   * The next attempt of a period whose schedule is used up, sent by a lost run: its outcome stands.
   */
  void lostRunAttempt(OpenPeriod period, Attempt attempt) {
    long cycle = period.cycle();
    int number = period.attempts() + 1;
    ChargeResult charge = attempt.result();
    if (charge != null && charge.pending()) {
      settlement.pending(
          cycle,
          number,
          period,
          charge.transactionId(),
          false,
          Process.RECONCILIATION,
          CollectionChanges.changeId(cycle, number, null));
    } else if (charge != null) {
      settlement.collected(
          cycle,
          number,
          charge.transactionId(),
          charge.processedAt(),
          Process.RECONCILIATION,
          null);
    } else {
      dunning.exhaust(
          period,
          number,
          attempt.failure().code(),
          attempt.failure().message(),
          "lookup of " + charging.key(cycle, number) + ", sent by a lost run");
    }
  }

  void settleByLookup(OpenPeriod period) {
    long cycle = period.cycle();
    ChargeLookup lookup = charging.lookUp(cycle, period.attempts());
    if (lookup == null) {
      periods.put(period.withSettleBy(now().plus(DunningSchedule.LOOKUP_RETRY_AFTER)));
      run.outcome(
          "cycle "
              + cycle
              + " still settling; the gateway did not answer, asking again "
              + DunningSchedule.LOOKUP_RETRY_AFTER.toDays()
              + " day later");
      return;
    }
    String source = "lookup of " + period.lastKey(current().subscriptionId());
    switch (lookup.status()) {
      case SUCCEEDED ->
          settlement.collected(
              cycle,
              period.attempts(),
              lookup.transactionId() != null ? lookup.transactionId() : period.transactionId(),
              lookup.processedAt(),
              Process.RECONCILIATION,
              "settled");
      case PENDING -> {
        periods.put(period.withSettleBy(now().plus(DunningSchedule.SETTLEMENT_TIMEOUT)));
        run.outcome("cycle " + cycle + " still settling according to the gateway");
      }
      case FAILED ->
          dunning.enterDunning(
              cycle,
              period.attempts(),
              ChargeAttempts.codeOr(lookup.failureCode(), "charge_failed"),
              lookup.failureMessage(),
              false,
              false,
              period,
              Process.RECONCILIATION,
              HistoryEvent.PAYMENT_FAILED,
              "failed",
              source,
              true);
      // The gateway accepted this charge, so NOT_FOUND is its search lagging, not a failure: the
      // period is duned with its outcome unknown, and the next step re-sends the same key.
      case NOT_FOUND ->
          dunning.enterDunning(
              cycle,
              period.attempts(),
              SubscriptionChanges.CHARGE_NOT_FOUND,
              lookup.failureMessage(),
              false,
              true,
              period,
              Process.RECONCILIATION,
              HistoryEvent.PAYMENT_FAILED,
              "failed",
              source + ": outcome unknown",
              true);
      case RETURNED -> {
        charging.returnedCharge(period, lookup.transactionId());
        dunning.enterDunning(
            cycle,
            period.attempts(),
            ChargeAttempts.codeOr(lookup.failureCode(), "charge_returned"),
            lookup.failureMessage(),
            false,
            false,
            period,
            Process.RECONCILIATION,
            HistoryEvent.PAYMENT_RETURNED,
            "returned",
            source,
            true);
      }
    }
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
