package dev.billing.workflows.subscription;

import static dev.billing.workflows.subscription.LifecycleOperations.blankToNull;
import static dev.billing.workflows.subscription.LifecycleOperations.refusal;
import static dev.billing.workflows.subscription.LifecycleOperations.refuseIf;

import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.AppliedRequest;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.PayNowRequest;
import dev.billing.workflows.RefundRequest;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.UpdateRejections;
import dev.billing.workflows.WaiveRequest;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.util.stream.Stream;

/**
 * What a client asks about one period: manual repayment of the oldest owed period, a waiver of an
 * unpaid one, a refund of a collected one; and unpaid periods turning STALE.
 */
final class PeriodChanges {
  private final RunState run;
  private final PeriodCollection periods;
  private final Gateway gateway;
  private final PaymentCollector collector;
  private final MoneyChanges money;
  private final RequestLog requests;

  PeriodChanges(RunState run, Gateway gateway, PaymentCollector collector, MoneyChanges money) {
    this.run = run;
    this.periods = run.periods;
    this.gateway = gateway;
    this.collector = collector;
    this.money = money;
    this.requests = run.requests;
  }

  String payRefusal(boolean cancelling) {
    OpenPeriod settling = firstAwaitingOutcome();
    return ChangeRules.pay(
        run.current(), cancelling, owedCycle(), settling == null ? null : settling.cycle());
  }

  /** Manual repayment of the oldest owed period. */
  void payNow(PayNowRequest request) {
    refuseIf(payRefusal(false));
    long cycle = owedCycle();
    PaymentCollector.ManualResult result = collector.payNow(cycle);
    String outcome = "manual payment of cycle " + cycle + ": " + result.message();
    run.outcome(outcome);
    if (result.outcome() == PaymentCollector.ManualOutcome.PENDING
        || result.outcome() == PaymentCollector.ManualOutcome.UNKNOWN) {
      // The period's collection resolves it; the client is told it is pending, not paid.
      requests.remember(request, AppliedRequest.Status.PENDING, outcome, null);
    }
    if (result.outcome() == PaymentCollector.ManualOutcome.DECLINED) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the payment of cycle " + cycle + " was declined: " + result.message(),
          UpdateRejections.PAYMENT_DECLINED);
    }
  }

  void waive(WaiveRequest request, String actor) {
    refuseIf(ChangeRules.waive(run.current(), request, false));
    long cycle = request.cycle();
    refuseIfAwaitingOutcome(cycle);
    Period stored = load(cycle);
    if (stored.status() != PeriodStatus.ERROR) {
      throw refusal(
          "period "
              + cycle
              + " is "
              + stored.status()
              + "; only an unpaid (ERROR) period can be waived");
    }
    Subscription sub = run.current();
    SubscriptionStatus status =
        sub.status() == SubscriptionStatus.PAST_DUE && !periods.dunningOtherThan(cycle)
            ? SubscriptionStatus.ACTIVE
            : sub.status();
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change =
        LifecycleChanges.waived(sub, stored, status, actor, blankToNull(request.reason()), now());
    periods.remove(cycle);
    periods.removeUnpaid(cycle);
    run.record(change);
    run.outcome("cycle " + cycle + " waived (" + stored.amount() + ")");
  }

  void refund(RefundRequest request, String actor) {
    refuseIf(ChangeRules.refund(request));
    Period stored = load(request.cycle());
    if (money.refunds.refundFromRecord(request, stored, actor)) {
      return;
    }
    money.refunds.refund(
        request,
        stored,
        refundable(stored, request.amount()),
        actor,
        blankToNull(request.reason()));
  }

  Money refundable(Period stored, Money requested) {
    if (stored.status() != PeriodStatus.COMPLETED && stored.status() != PeriodStatus.REFUNDED) {
      throw refusal(
          "period "
              + stored.cycle()
              + " is "
              + stored.status()
              + "; only a collected period can be refunded");
    }
    if (stored.transactionId() == null) {
      throw refusal(
          "period " + stored.cycle() + " was paid by credit; nothing was charged to refund");
    }
    Money left = stored.refundable();
    // Refunds of its charge sent without an answer yet (by this run or an ended one) may have
    // moved.
    long waiting =
        stored.refunds().stream()
            .filter(r -> !r.made() && r.transactionId().equals(stored.transactionId()))
            .mapToLong(r -> r.amount().minor())
            .sum();
    if (waiting > 0) {
      left = new Money(Math.max(0, left.minor() - waiting), left.currency());
    }
    if (left.minor() <= 0) {
      throw refusal("period " + stored.cycle() + " is refunded in full already");
    }
    if (requested == null) {
      return left;
    }
    if (!requested.currency().equals(left.currency())) {
      throw refusal("the refund's currency must be the period's (" + left.currency() + ")");
    }
    if (requested.minor() <= 0) {
      throw refusal("the refund amount must be more than zero");
    }
    if (requested.minor() > left.minor()) {
      throw refusal("at most " + left + " of period " + stored.cycle() + " can be refunded");
    }
    return requested;
  }

  /** Unpaid periods older than their stale age stop being owed (STALE). */
  void markStale(UnpaidPeriod unpaid) {
    run.phase(Phase.RECORDING_PAYMENT);
    RecordInput change = LifecycleChanges.stale(run.current(), unpaid, now());
    periods.removeUnpaid(unpaid.cycle());
    run.record(change);
    run.outcome(
        "cycle " + unpaid.cycle() + " unpaid for " + unpaid.staleAfterDays() + " days: STALE");
  }

  /** The oldest period that manual repayment can collect now: in dunning or unpaid after it. */
  Long owedCycle() {
    Stream<Long> dunning =
        periods.openPeriods().stream()
            .filter(p -> p.state() == State.DUNNING && !p.outcomeUnknown())
            .map(OpenPeriod::cycle);
    Stream<Long> unpaid = periods.unpaid().stream().map(UnpaidPeriod::cycle);
    return Stream.concat(dunning, unpaid).min(Long::compare).orElse(null);
  }

  OpenPeriod firstAwaitingOutcome() {
    return periods.openPeriods().stream()
        .filter(p -> p.state() == State.PENDING_SETTLEMENT || p.outcomeUnknown())
        .findFirst()
        .orElse(null);
  }

  void refuseIfAwaitingOutcome(long cycle) {
    OpenPeriod open = periods.open(cycle);
    if (open != null && (open.state() == State.PENDING_SETTLEMENT || open.outcomeUnknown())) {
      throw refusal("a charge of period " + cycle + " may still settle; wait for its outcome");
    }
  }

  Period load(long cycle) {
    return gateway.load(run.current(), cycle);
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
