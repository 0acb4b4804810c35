package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.PaidPeriod;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Proration;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.Subscription;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.RefundInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import org.slf4j.Logger;

/**
 * The unused days refunded at an immediate cancellation with refundUnused: of the period in
 * service's own charge and of each upgrade charged within it, each sent as any refund is ({@link
 * Refunds}), keyed by the cancellation's request.
 */
final class UnusedDaysRefunds {
  private static final Logger log = Workflow.getLogger(UnusedDaysRefunds.class);

  private final RunState run;
  private final RequestLog requests;
  private final Gateway gateway;
  private final Refunds refunds;
  private final ReTermedRefunds reTermed;

  UnusedDaysRefunds(RunState run, Gateway gateway, Refunds refunds) {
    this.run = run;
    this.requests = run.requests;
    this.gateway = gateway;
    this.refunds = refunds;
    this.reTermed = new ReTermedRefunds(run, refunds);
  }

  /**
   * Immediate cancellation with refundUnused: the unused days of the period in service are refunded
   * (rounded down, today counted as used), from the period's own charge and from each upgrade
   * charged within it. Best effort: a refund the gateway refuses does not stop the cancellation,
   * and is reported for an operator; one without an answer is resolved later.
   *
   * @return what was refunded of a term switch's credit, for the cancellation's record to take off
   *     the balance; zero when none
   */
  Money refundUnused(CancelRequest request, String actor) {
    Subscription sub = run.current();
    long cycle = sub.cycle() - 1;
    LocalDate today = today(sub);
    if (cycle < 1 || sub.lastPaymentAt() == null || !PaidPeriod.running(sub).contains(today)) {
      run.outcome("no paid period in service: nothing to refund");
      return Money.zero(sub.price().currency());
    }
    // A subscription is cancelled once: without a client id, the cancellation itself is the id.
    String requestId = request.requestId() == null ? "cancellation" : request.requestId();
    ReTermedPeriod switched = sub.lifecycle().reTermed();
    if (switched != null && switched.cycle() != cycle) {
      switched = null;
    }
    Money credit = refundUnusedOfPeriod(sub, cycle, switched, requestId, actor);
    for (UpgradeCharge upgrade : requests.upgradeCharges(cycle)) {
      if (switched != null && switched.consumed(upgrade.toRecord())) {
        // Its unused days were credited by the switch: refunded with the period's own money.
        continue;
      }
      long covered = Proration.daysLeft(upgrade.from(), upgrade.until());
      long unused = Math.min(covered, Proration.daysLeft(today.plusDays(1), upgrade.until()));
      if (covered <= 0 || unused <= 0) {
        continue;
      }
      Money share = Proration.shareRoundedDown(upgrade.amount(), unused, covered);
      if (share.minor() <= 0) {
        continue;
      }
      RefundInput input =
          RefundInput.of(sub, cycle)
              .ofCharge(upgrade.transactionId())
              .amount(share)
              .idempotencyKey(
                  BillingIds.refundKey(
                      sub.subscriptionId(), cycle, requestId + "#" + upgrade.transactionId()))
              .reason(unused + " unused of " + covered + " upgraded days")
              .build();
      try {
        refunds.refundOrAwait(
            new PendingRefund(requestId, input, upgrade.transactionId(), actor, now(), 0), null);
      } catch (ApplicationFailure e) {
        log.error(
            "refund of the upgrade's unused days of {} failed; cancelling anyway: {}",
            sub.subscriptionId(),
            e.getOriginalMessage());
        run.outcome(
            "unused upgrade days not refunded (" + e.getOriginalMessage() + "); refund by hand");
      }
    }
    return credit;
  }

  /**
   * @param switched the period in service as a term switch re-priced it; null when none did
   * @return what was refunded of the switch's credit
   */
  private Money refundUnusedOfPeriod(
      Subscription sub, long cycle, ReTermedPeriod switched, String requestId, String actor) {
    LocalDate today = today(sub);
    Money none = Money.zero(sub.price().currency());
    try {
      Period stored = gateway.load(sub, cycle);
      boolean paid =
          stored.status() == PeriodStatus.COMPLETED || stored.status() == PeriodStatus.REFUNDED;
      if (paid && switched != null) {
        // Credit may have paid the period itself: the upgrades before the switch still owe back.
        return reTermed.refund(sub, stored, switched, requestId, actor);
      }
      if (stored.transactionId() == null || !paid) {
        run.outcome("cycle " + cycle + " is " + stored.status() + ": nothing to refund");
        return none;
      }
      // The days a billing-day move added were carried to the next charge, not paid by this one.
      PaidPeriod period = PaidPeriod.running(sub);
      long unused = period.unusedPaidDays(today);
      long days = period.paidDays();
      Money share = period.unusedOfCharge(stored.amount(), today);
      Money amount = share.minor() > stored.refundable().minor() ? stored.refundable() : share;
      if (amount.minor() <= 0) {
        run.outcome("no unused amount to refund for cycle " + cycle);
        return none;
      }
      RefundInput input =
          RefundInput.of(sub, cycle)
              .ofCharge(stored.transactionId())
              .amount(amount)
              .idempotencyKey(BillingIds.refundKey(sub.subscriptionId(), cycle, requestId))
              .reason(unused + " unused of " + days + " days")
              .build();
      refunds.refundOrAwait(new PendingRefund(requestId, input, null, actor, now(), 0), stored);
      return none;
    } catch (ApplicationFailure e) {
      log.error(
          "refund of unused days of {} failed; cancelling anyway: {}",
          sub.subscriptionId(),
          e.getOriginalMessage());
      run.outcome("unused days not refunded (" + e.getOriginalMessage() + "); refund by hand");
      return none;
    }
  }

  private static LocalDate today(Subscription sub) {
    return sub.schedule().dateAt(now());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
