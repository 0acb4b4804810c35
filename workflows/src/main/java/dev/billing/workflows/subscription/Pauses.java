package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.blankToNull;
import static dev.billing.workflows.subscription.LifecycleOperations.refuseIf;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Pause;
import dev.billing.domain.Process;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Pause and resume. No reminder, no charge and no dunning retry while paused; each period due
 * meanwhile is PAUSED_SKIPPED. Resuming restarts billing with the cycle the subscription is on (the
 * first whose due date has not come while paused), so the paused time is never charged and no
 * period twice.
 */
final class Pauses {
  private final RunState run;
  private final PeriodCollection periods;

  Pauses(RunState run) {
    this.run = run;
    this.periods = run.periods;
  }

  void pause(PauseRequest request, String actor) {
    refuseIf(
        ChangeRules.pause(
            run.current(), request, false, today(run.current()), run.firstPaymentOpen()));
    Subscription sub = run.current();
    long cycle = sub.cycle();
    BillingSchedule schedule = sub.schedule();
    LocalDate resumesOn =
        request.cycles() != null ? schedule.dueDate(cycle + request.cycles()) : request.until();
    pauseNow(new Pause(today(sub), resumesOn, blankToNull(request.reason())), Process.API, actor);
  }

  /** Dunning ended with PAUSE: paused until someone resumes it. */
  void pauseAfterDunning(String reason) {
    if (run.current().status().isTerminal()
        || run.current().status() == SubscriptionStatus.PAUSED) {
      return;
    }
    pauseNow(
        new Pause(today(run.current()), null, reason),
        Process.RETRY,
        SubscriptionChanges.SYSTEM_ACTOR);
  }

  void pauseNow(Pause pause, Process process, String actor) {
    Subscription sub = run.current();
    BillingSchedule schedule = sub.schedule();
    LocalDate restartsOn =
        pause.resumesOn() == null
            ? null
            : schedule.dueDate(schedule.firstCycleOnOrAfter(sub.cycle(), pause.resumesOn()));
    String detail =
        "paused"
            + (pause.resumesOn() == null
                ? " until resumed"
                : "; billing restarts with the payment due " + restartsOn)
            + (pause.reason() == null ? "" : ": " + pause.reason());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(PauseRecords.paused(sub, pause, restartsOn, process, actor, detail, now()));
    run.notice(
        run.noticeOf(
                NotifyCustomerInput.Kind.SUBSCRIPTION_PAUSED, "paused-v" + run.current().version())
            .amount(run.current().price())
            .date(pause.resumesOn())
            .reason(pause.reason())
            .build());
    run.outcome(detail);
    run.replan();
  }

  void resume(String actor, Process process) {
    refuseIf(ChangeRules.resume(run.current(), false));
    Subscription sub = run.current();
    String detail =
        (process == Process.PAUSE ? "pause ended" : "resumed")
            + "; next payment cycle "
            + sub.cycle()
            + " due "
            + sub.schedule().dueDate(sub.cycle());
    run.phase(Phase.RECORDING_PAYMENT);
    run.record(PauseRecords.resumed(sub, statusAfterPause(), process, actor, detail, now()));
    Subscription resumed = run.current();
    run.notice(
        run.noticeOf(NotifyCustomerInput.Kind.SUBSCRIPTION_RESUMED, "resumed-v" + resumed.version())
            .amount(resumed.amountDueFor(resumed.cycle()))
            .date(resumed.schedule().dueDate(resumed.cycle()))
            .build());
    run.outcome(detail);
    run.replan();
  }

  /** The period due while paused is not billed. */
  void skipWhilePaused() {
    run.phase(Phase.RECORDING_PAYMENT);
    long cycle = run.current().cycle();
    run.record(PauseRecords.skipped(run.current(), now()));
    run.outcome("paused: cycle " + cycle + " skipped (PAUSED_SKIPPED)");
    run.nextRun();
  }

  SubscriptionStatus statusAfterPause() {
    Subscription sub = run.current();
    if (periods.dunningOtherThan(-1)) {
      return SubscriptionStatus.PAST_DUE;
    }
    boolean trial = sub.lifecycle().trialEndsOn() != null && sub.lastPaymentAt() == null;
    if (trial) {
      return SubscriptionStatus.TRIALING;
    }
    // Never billed (no payment, nothing left owed by dunning): INCOMPLETE again, its first payment
    // still to come. A run recorded on 1.0.0 resumed such a subscription ACTIVE.
    boolean neverBilled = sub.lastPaymentAt() == null && periods.unpaid().isEmpty();
    return neverBilled && WorkflowChanges.firstPayment()
        ? SubscriptionStatus.INCOMPLETE
        : SubscriptionStatus.ACTIVE;
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
