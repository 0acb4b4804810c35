package dev.billing.workflows.subscription;

import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.ChargeResult;
import io.temporal.workflow.Workflow;
import java.time.Instant;

/**
 * Records what a period's money came to: collected (the period leaves the open set and joins the
 * settled charges remembered for returns) or accepted and settling. The period's new state is in
 * place before the record is awaited, so state and store never disagree at a safe point.
 */
final class Settlement {
  private final RunState run;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;

  Settlement(RunState run, ChargeAttempts charging) {
    this.run = run;
    this.periods = run.periods;
    this.charging = charging;
  }

  void pending(
      long cycle,
      int attempt,
      OpenPeriod prior,
      String transactionId,
      boolean advance,
      Process process,
      String changeId) {
    pending(cycle, attempt, prior, transactionId, advance, process, changeId, null);
  }

  /**
   * @param charged what the attempt charged; null to take the period's amount as it stands
   */
  void pending(
      long cycle,
      int attempt,
      OpenPeriod prior,
      String transactionId,
      boolean advance,
      Process process,
      String changeId,
      Money charged) {
    Instant settleBy = now().plus(DunningSchedule.SETTLEMENT_TIMEOUT);
    run.phase(Phase.RECORDING_PAYMENT);
    // The period is pending before the record is awaited: state and store never disagree at a safe
    // point.
    Money amount = charged != null ? charged : charging.amountOf(cycle);
    RecordInput change =
        CollectionChanges.pending(
            current(),
            cycle,
            amount,
            attempt,
            transactionId,
            advance,
            process,
            changeId,
            "charge of " + amount + " accepted, settling: transaction " + transactionId,
            now());
    periods.put(
        OpenPeriod.pending(
            cycle,
            attempt,
            prior == null ? null : prior.policy(),
            prior == null ? null : prior.dunningFrom(),
            charging.usedByAttempt(prior),
            settleBy,
            transactionId,
            amount));
    run.record(change);
    run.outcome(
        "cycle "
            + cycle
            + " charge "
            + transactionId
            + " pending settlement; asking the gateway "
            + settleBy
            + " if no event comes");
  }

  /**
   * A period collected after its first attempt (retry, settlement, lookup): no move to the next
   * cycle.
   */
  void collected(
      long cycle,
      int attempt,
      String transactionId,
      Instant processedAt,
      Process process,
      String suffix) {
    run.phase(Phase.RECORDING_PAYMENT);
    Money amount = charging.amountOf(cycle);
    RecordInput change =
        CollectionChanges.collected(
            current(),
            cycle,
            amount,
            attempt,
            transactionId,
            processedAt,
            charging.statusAfterCollecting(cycle),
            process,
            CollectionChanges.changeId(cycle, attempt, suffix),
            "charged " + amount + ", transaction " + transactionId + " (attempt " + attempt + ")",
            now());
    // Open -> settled in one step before the record is awaited, so no state is in between.
    periods.remove(cycle);
    periods.removeUnpaid(cycle);
    periods.settled(
        new SettledCharge(cycle, attempt, charging.key(cycle, attempt), transactionId, amount));
    run.record(change);
    run.outcome(
        "cycle " + cycle + " charged " + amount + " on attempt " + attempt + ": " + transactionId);
  }

  /**
   * Attempt 1 got no answer, but the gateway says it went through: the usual first-attempt record.
   */
  void recordFirstPaid(long cycle, ChargeLookup lookup) {
    ChargeResult charge = new ChargeResult(lookup.transactionId(), lookup.processedAt(), true);
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput paid =
        SubscriptionChanges.paid(
            current(), 1, charge, charging.statusAfterCollecting(cycle), now());
    periods.settled(
        new SettledCharge(
            cycle, 1, charging.key(cycle, 1), charge.transactionId(), paid.period().amount()));
    run.record(paid);
    run.outcome(
        "cycle "
            + cycle
            + " charged "
            + current().price()
            + ": "
            + charge.transactionId()
            + " (no answer from the charge; found by lookup)");
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
