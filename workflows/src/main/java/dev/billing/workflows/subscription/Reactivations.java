package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.refusal;
import static dev.billing.workflows.subscription.LifecycleOperations.refuseIf;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Process;
import dev.billing.domain.Reactivation;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.workflows.SubscriptionState.Phase;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A reactivation, applied on the main thread. An ended subscription bills again from the first
 * cycle due today or later ({@link Reactivation}): the run that applies it (the ended run still
 * open, or one the API started again from the record) plans that cycle instead of ending. A
 * cancellation scheduled at period end is taken back: the cycle it is on is billed on its date. No
 * money moves here; the cycle's charge is the run's own first attempt, with its usual key.
 */
final class Reactivations {
  private final RunState run;

  Reactivations(RunState run) {
    this.run = run;
  }

  /** The validator's rule (see {@link ChangeRules#reactivate}). */
  String rule() {
    return ChangeRules.reactivate(run.current(), run.cancelling(), moneyOpen());
  }

  void reactivate(String actor, String reason) {
    refuseIf(rule());
    if (!WorkflowChanges.reactivation()) {
      // Only a history that applied this update without the marker could replay here, and no code
      // ever did: refused rather than recorded differently from how it first ran.
      throw refusal("this run cannot reactivate the subscription");
    }
    Subscription sub = run.current();
    Instant now = RunState.now();
    run.phase(Phase.RECORDING_PAYMENT);
    if (sub.status().isTerminal()) {
      long cycle = Reactivation.resumeCycle(sub, sub.schedule().dateAt(now));
      Subscription next =
          Reactivation.reactivated(sub, cycle, run.reminderAt(sub.schedule(), cycle), now)
              .withVersion(sub.version() + 1);
      String detail =
          "reactivated: billing restarts with cycle "
              + cycle
              + " due "
              + sub.schedule().dueDate(cycle)
              + (cycle == sub.cycle() ? "" : " (cycles " + sub.cycle() + "-" + (cycle - 1))
              + (cycle == sub.cycle() ? "" : " fell due while cancelled: not billed)")
              + (reason == null ? "" : ": " + reason);
      run.reactivated();
      run.record(change(sub, next, actor, detail, now));
      run.outcome(detail);
      return;
    }
    LocalDate endsOn = sub.lifecycle().cancelsOn();
    Subscription next =
        Reactivation.cancellationTakenBack(sub, run.reminderAt(sub.schedule(), sub.cycle()), now)
            .withVersion(sub.version() + 1);
    String detail =
        "cancellation on "
            + endsOn
            + " taken back: cycle "
            + sub.cycle()
            + " due "
            + sub.schedule().dueDate(sub.cycle())
            + " is billed"
            + (reason == null ? "" : ": " + reason);
    run.record(change(sub, next, actor, detail, now));
    run.outcome(detail);
    // The plan ended the cycle on cancelsOn without charging: plan it again with the charge.
    run.replan();
  }

  /** A payment still settling, or a refund or upgrade charge without its outcome. */
  private boolean moneyOpen() {
    return !run.periods.openPeriods().isEmpty() || run.requests.moneyUnresolved();
  }

  private static RecordInput change(
      Subscription sub, Subscription next, String actor, String detail, Instant at) {
    return LifecycleChanges.change(
        "reactivate",
        sub,
        next,
        HistoryEvent.SUBSCRIPTION_REACTIVATED,
        Process.API,
        actor,
        detail,
        at);
  }
}
