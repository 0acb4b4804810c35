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

  /** Refunds what the period owes back on {@code today}; what was sent of the switch's credit. */
  void refund(
      Subscription sub, Period stored, ReTermedPeriod period, String requestId, String actor) {
    LocalDate today = sub.schedule().dateAt(now());
    Money balance = sub.lifecycle().balance();
    Money owed = ReTermedRefund.owed(period, today, balance);
    if (owed.minor() <= 0) {
      run.outcome("no unused amount to refund for cycle " + stored.cycle());
      return;
    }
    List<ReTermedRefund.Part> parts = ReTermedRefund.split(owed, sources(sub, stored, requestId));
    long sent = 0;
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
      try {
        refunds.refundOrAwait(
            new PendingRefund(
                requestId, input, part.own() ? null : part.transactionId(), actor, now(), 0),
            sent == 0 && part.own() ? stored : null);
        sent += part.amount().minor();
      } catch (ApplicationFailure e) {
        log.error(
            "refund of the re-priced period's unused money of {} failed; cancelling anyway: {}",
            sub.subscriptionId(),
            e.getOriginalMessage());
        run.outcome("unused money not refunded (" + e.getOriginalMessage() + "); refund by hand");
      }
    }
    if (sent < owed.minor()) {
      run.outcome(
          "of "
              + owed
              + " unused, "
              + new Money(owed.minor() - sent, owed.currency())
              + " was not left to refund on the period's charges");
    }
    creditRefunded(sub, period, owed, sent);
  }

  /**
   * The switch's credit refunded leaves the balance: the cancellation then names only the rest as
   * left unused. The days' share is refunded before the credit, so a shortfall falls on the credit.
   */
  private void creditRefunded(Subscription sub, ReTermedPeriod period, Money owed, long sent) {
    Money credit = ReTermedRefund.creditLeft(period, sub.lifecycle().balance());
    long days = owed.minor() - credit.minor();
    long creditSent = Math.max(0, Math.min(credit.minor(), sent - days));
    if (creditSent == 0) {
      return;
    }
    Money back = new Money(creditSent, credit.currency());
    Subscription current = run.current();
    run.replace(
        current.withLifecycle(
            current
                .lifecycle()
                .withBalance(current.lifecycle().balance().plus(back))
                .withReTermed(
                    new ReTermedPeriod(
                        period.cycle(),
                        period.from(),
                        period.until(),
                        period.carried(),
                        period.excess().minus(back)))));
  }

  private List<ReTermedRefund.Source> sources(Subscription sub, Period stored, String requestId) {
    List<ReTermedRefund.Source> sources = new ArrayList<>();
    String ownKey = BillingIds.refundKey(sub.subscriptionId(), stored.cycle(), requestId);
    Money own = available(stored, stored.transactionId(), stored.amount(), ownKey);
    // What the gateway reports refunded beyond our own requests counts too.
    PeriodRefund retried = stored.refund(ownKey);
    Money byRecord =
        retried == null || !retried.made()
            ? stored.refundable()
            : stored.refundable().plus(retried.amount());
    sources.add(
        new ReTermedRefund.Source(
            stored.transactionId(), own.minor() < byRecord.minor() ? own : byRecord, true));
    ReTermedPeriod period = sub.lifecycle().reTermed();
    for (UpgradeCharge upgrade : run.requests.upgradeCharges(stored.cycle())) {
      if (!period.consumed(upgrade.toRecord())) {
        continue;
      }
      String key =
          BillingIds.refundKey(
              sub.subscriptionId(), stored.cycle(), requestId + "#" + upgrade.transactionId());
      sources.add(
          new ReTermedRefund.Source(
              upgrade.transactionId(),
              available(stored, upgrade.transactionId(), upgrade.amount(), key),
              false));
    }
    return sources;
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
