package dev.billing.workflows.subscription;

import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.ReTermedPeriod;
import dev.billing.domain.ReTermedRefund;
import dev.billing.domain.Subscription;
import dev.billing.workflows.PendingRefund;
import dev.billing.workflows.UpgradeCharge;
import dev.billing.workflows.activities.RefundInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * The unused money of a period in service that a term switch re-priced ({@link ReTermedRefund}),
 * refunded from the period's own charge first, then from upgrades charged within it before the
 * switch. Each part's key is the one an unused-days refund of that charge has ({@link
 * UnusedDaysRefunds}), so a cancellation retried, or taken again by a run restarted from the
 * record, finds its refunds made and sends none twice.
 */
final class ReTermedRefunds {
  private static final Logger log = Workflow.getLogger(ReTermedRefunds.class);

  private final RunState run;
  private final Refunds refunds;

  ReTermedRefunds(RunState run, Refunds refunds) {
    this.run = run;
    this.refunds = refunds;
  }

  /**
   * Refunds what the period owes back on {@code today}.
   *
   * @return what was refunded of the switch's credit (made, not only sent): the cancellation's
   *     record takes it off the balance, so no record before it changes what a retry computes
   */
  Money refund(
      Subscription sub, Period stored, ReTermedPeriod period, String requestId, String actor) {
    LocalDate today = sub.schedule().dateAt(now());
    Money balance = sub.lifecycle().balance();
    Money owed = ReTermedRefund.owed(period, today, balance);
    Money none = Money.zero(owed.currency());
    if (owed.minor() <= 0) {
      run.outcome("no unused amount to refund for cycle " + stored.cycle());
      return none;
    }
    List<ReTermedRefund.Part> parts =
        ReTermedRefund.split(owed, sources(sub, stored, period, requestId));
    long made = 0;
    long asked = 0;
    for (ReTermedRefund.Part part : parts) {
      String key =
          BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), keyOf(part, requestId));
      RefundInput input =
          RefundInput.of(sub, stored.cycle())
              .ofCharge(part.transactionId())
              .amount(part.amount())
              .idempotencyKey(key)
              .reason(
                  "unused money of cycle "
                      + stored.cycle()
                      + " re-priced on "
                      + period.from()
                      + " ("
                      + owed
                      + " in all)")
              .build();
      asked += part.amount().minor();
      try {
        boolean done =
            refunds.refundOrAwait(
                new PendingRefund(
                    requestId, input, part.own() ? null : part.transactionId(), actor, now(), 0),
                // The period as read serves the own charge's part, which comes first; a later part
                // reads it again, with the refund just recorded.
                part.own() ? stored : null);
        if (done) {
          made += part.amount().minor();
        }
      } catch (ApplicationFailure e) {
        log.error(
            "refund of the re-priced period's unused money of {} failed; cancelling anyway: {}",
            sub.subscriptionId(),
            e.getOriginalMessage());
        run.outcome("unused money not refunded (" + e.getOriginalMessage() + "); refund by hand");
      }
    }
    if (asked < owed.minor()) {
      run.outcome(
          "of "
              + owed
              + " unused, "
              + new Money(owed.minor() - asked, owed.currency())
              + " was not left to refund on the charges that paid for it");
    }
    // The days' share is refunded before the credit: a shortfall falls on the credit.
    Money credit = ReTermedRefund.creditLeft(period, balance);
    long days = owed.minor() - credit.minor();
    return new Money(Math.max(0, Math.min(credit.minor(), made - days)), owed.currency());
  }

  private List<ReTermedRefund.Source> sources(
      Subscription sub, Period stored, ReTermedPeriod period, String requestId) {
    List<ReTermedRefund.Source> sources = new ArrayList<>();
    Money zero = Money.zero(stored.amount().currency());
    Money own = zero;
    if (stored.transactionId() != null) {
      String ownKey = BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId);
      Money byRefunds = available(stored, stored.transactionId(), stored.amount(), ownKey);
      // What the gateway reports refunded beyond our own requests counts too.
      PeriodRefund retried = stored.refund(ownKey);
      Money byRecord =
          retried == null || !retried.made()
              ? stored.refundable()
              : stored.refundable().plus(retried.amount());
      own = byRefunds.minor() < byRecord.minor() ? byRefunds : byRecord;
    }
    sources.add(new ReTermedRefund.Source(stored.transactionId(), own, true, period.ownShare()));
    for (ReTermedPeriod.Share share : period.consumed()) {
      String key =
          BillingIds.refundKey(
              sub.subscriptionId(), stored.cycle(), requestId + "#" + share.transactionId());
      Money charged = chargedAmount(stored.cycle(), share);
      sources.add(
          new ReTermedRefund.Source(
              share.transactionId(),
              available(stored, share.transactionId(), charged, key),
              false,
              share.amount()));
    }
    return sources;
  }

  /** The upgrade's charge as kept; a charge no longer kept is capped at its part in the credit. */
  private Money chargedAmount(long cycle, ReTermedPeriod.Share share) {
    for (UpgradeCharge upgrade : run.requests.upgradeCharges(cycle)) {
      if (upgrade.idempotencyKey().equals(share.idempotencyKey())) {
        return upgrade.amount();
      }
    }
    return share.amount();
  }

  /** A charge's amount less the refunds of it other than {@code key}'s (this refund's own try). */
  private static Money available(Period stored, String transactionId, Money amount, String key) {
    long refunded =
        stored.refunds().stream()
            .filter(r -> r.transactionId().equals(transactionId))
            .filter(r -> !r.idempotencyKey().equals(key))
            .mapToLong(r -> r.amount().minor())
            .sum();
    return new Money(Math.max(0, amount.minor() - refunded), amount.currency());
  }

  private static String keyOf(ReTermedRefund.Part part, String requestId) {
    return part.own() ? requestId : requestId + "#" + part.transactionId();
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
