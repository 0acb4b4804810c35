package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.FirstPayment;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * How dunning ends: used up with the policy's final outcome (cancel, pause or leave unpaid), or,
 * after a cancellation, the period closed unpaid with no retry and no notice.
 */
final class DunningEnd {
  private static final Logger log = Workflow.getLogger(DunningEnd.class);

  private final RunState run;
  private final PeriodCollection periods;
  private final ChargeAttempts charging;

  DunningEnd(RunState run, ChargeAttempts charging) {
    this.run = run;
    this.periods = run.periods;
    this.charging = charging;
  }

  /**
   * Settle-only mode after a cancellation: a failure (event or lookup) is recorded and the period
   * closed, with no dunning, no notice and the subscription left CANCELLED. A NOT_FOUND cannot be
   * answered by re-sending the key (no new charges after a cancellation), so it is closed too and
   * left to reconciliation.
   */
  void closeUnpaid(
      long cycle,
      int attempts,
      String code,
      String message,
      boolean unknown,
      Process process,
      HistoryEvent event,
      String suffix,
      String source,
      Money amount) {
    String what =
        (event == HistoryEvent.PAYMENT_RETURNED ? "payment returned: " : "payment failed: ")
            + code
            + (message == null ? "" : " (" + message + ")");
    String detail =
        what + (source == null ? "" : " [" + source + "]") + "; subscription cancelled: no retry";
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change =
        CollectionChanges.unpaid(
            current(),
            cycle,
            amount,
            attempts,
            code,
            message,
            event,
            false,
            process,
            CollectionChanges.changeId(cycle, attempts, suffix),
            detail,
            now());
    periods.remove(cycle);
    run.record(change);
    run.outcome("cycle " + cycle + " " + detail);
    if (unknown) {
      log.error(
          "cycle {} of cancelled subscription {}: outcome of {} still unknown; closed unpaid, "
              + "reconcile with the gateway",
          cycle,
          current().subscriptionId(),
          charging.key(cycle, attempts));
    }
  }

  /**
   * Dunning ends unpaid now that the last attempt ({@code attempts}) is known not to have
   * collected. After a cancellation only the period is recorded (settle-only).
   */
  void exhaust(OpenPeriod period, int attempts, String code, String message, String source) {
    long cycle = period.cycle();
    if (current().status().isTerminal()) {
      closeUnpaid(
          cycle,
          attempts,
          code,
          message,
          false,
          Process.RECONCILIATION,
          HistoryEvent.PAYMENT_FAILED,
          "exhausted",
          source,
          charging.amountOf(cycle));
      return;
    }
    Money amount = charging.amountOf(cycle);
    boolean firstPayment = period.policy().expires() && FirstPayment.applies(current());
    String detail =
        "payment failed: "
            + code
            + (message == null ? "" : " (" + message + ")")
            + (source == null ? "" : " [" + source + "]")
            + (firstPayment ? "; first payment not collected after " : "; dunning exhausted after ")
            + attempts
            + (attempts == 1 ? " attempt" : " attempts")
            + ": "
            + (firstPayment
                ? "subscription expired (INCOMPLETE_EXPIRED)"
                : period.policy().finalOutcome());
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change =
        CollectionChanges.unpaid(
            current(),
            cycle,
            amount,
            attempts,
            code,
            message,
            HistoryEvent.DUNNING_EXHAUSTED,
            false,
            Process.RETRY,
            CollectionChanges.changeId(cycle, attempts, "exhausted"),
            detail,
            now());
    if (firstPayment) {
      change = FirstPaymentChanges.expired(change);
    }
    periods.remove(cycle);
    if (leavesOwed(period.policy())) {
      periods.putUnpaid(
          new UnpaidPeriod(
              cycle,
              attempts,
              amount,
              current().schedule().dueDate(cycle),
              period.policy().staleAfterDays(),
              message != null ? message : code));
    }
    run.record(change);
    run.outcome("cycle " + cycle + " " + detail);
    finalOutcome(cycle, attempts, period.policy(), amount, message != null ? message : code);
  }

  /** The period stays owed when dunning ends: manual repayment, a waiver, or its stale age. */
  static boolean leavesOwed(DunningPolicy policy) {
    return policy.finalOutcome() == DunningPolicy.FinalOutcome.LEAVE_UNPAID
        || policy.finalOutcome() == DunningPolicy.FinalOutcome.PAUSE;
  }

  /**
   * @param amount what the period was charged
   * @param reason the last decline, for the customer's notice
   */
  void finalOutcome(long cycle, int attempts, DunningPolicy policy, Money amount, String reason) {
    switch (policy.finalOutcome()) {
      case CANCEL ->
          run.cancelAfterDunning(
              "payment for cycle "
                  + cycle
                  + " not collected after "
                  + attempts
                  + (attempts == 1 ? " attempt" : " attempts"));
      case PAUSE ->
          run.pauseAfterDunning(
              "payment for cycle "
                  + cycle
                  + " not collected after "
                  + attempts
                  + (attempts == 1 ? " attempt" : " attempts"));
      case LEAVE_UNPAID -> {}
      case EXPIRE -> expired(cycle, amount, reason);
    }
  }

  /**
   * The record expired the subscription (when it had not ended already): the customer learns that
   * it never started and nothing is owed, and the run ends at its next safe point.
   */
  private void expired(long cycle, Money amount, String reason) {
    Subscription sub = current();
    if (sub.status() != SubscriptionStatus.INCOMPLETE_EXPIRED) {
      return;
    }
    run.notice(
        NotifyCustomerInput.about(NotifyCustomerInput.Kind.SUBSCRIPTION_EXPIRED, sub)
            .messageId(BillingIds.messageId(sub.subscriptionId(), cycle, "expired"))
            .cycle(cycle)
            .amount(amount)
            .reason(reason)
            .at(now())
            .build());
    log.warn(
        "subscription {} expired: its first payment was never collected", sub.subscriptionId());
    run.replan();
  }

  private Subscription current() {
    return run.current();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
