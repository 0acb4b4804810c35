package dev.billing.workflows;

import dev.billing.domain.DunningPolicy;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.BillingIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The input that starts a subscription's workflow again from the system of record, after its
 * workflow went missing or ended while the record still bills (reconciliation's repair). What the
 * lost run held in memory is rebuilt from the period items:
 *
 * <ul>
 *   <li>an ERROR period whose dunning schedule (the worker's current policy, from its due date) is
 *       not used up goes back into dunning; if its last attempt got no answer from the gateway, the
 *       restarted run looks that key up before any new attempt, so money that moved is never charged
 *       twice; one whose schedule is used up stays owed (manual repayment, waiver, stale age);
 *   <li>a PENDING_SETTLEMENT period is looked up at once (settle-by now);
 *   <li>the last {@value PeriodCollection#MAX_SETTLED} collected periods are remembered, so a return
 *       of their payment still reopens them.
 * </ul>
 *
 * The cycle being worked towards is the record's: if its due date has passed, the restarted run
 * charges it at once with attempt 1's key, which the gateway answers from its idempotency record if
 * the lost run had charged it already. Pure function of its arguments.
 */
public final class SubscriptionRestart {
  private SubscriptionRestart() {}

  /**
   * @param periods every period of the subscription, in any order
   * @param policy the dunning policy the worker applies to new failures
   * @param now when the restart happens
   */
  public static SubscriptionInput fromRecord(Subscription record, List<Period> periods,
      DunningPolicy policy, Instant now) {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(policy, "policy");
    List<Period> byCycle = periods.stream().sorted(Comparator.comparingLong(Period::cycle)).toList();
    List<OpenPeriod> open = new ArrayList<>();
    List<SettledCharge> settled = new ArrayList<>();
    List<UnpaidPeriod> unpaid = new ArrayList<>();
    for (Period period : byCycle) {
      switch (period.status()) {
        case ERROR -> {
          if (record.status().isTerminal()) {
            break;
          }
          int used = DunningSchedule.usedAt(record.schedule(), period.dueDate(), policy, 0, now);
          if (used < policy.retryAfterDays().size()) {
            boolean unanswered = SubscriptionChanges.GATEWAY_UNAVAILABLE.equals(period.failureCode());
            open.add(OpenPeriod.dunning(period.cycle(), Math.max(1, period.attempts()), unanswered,
                policy, period.dueDate(), used, period.failureCode(), period.failureMessage(),
                period.amount()));
          } else {
            unpaid.add(new UnpaidPeriod(period.cycle(), period.attempts(), period.amount(),
                period.dueDate(), policy.staleAfterDays(), period.failureMessage()));
          }
        }
        case PENDING_SETTLEMENT -> open.add(OpenPeriod.pending(period.cycle(),
            Math.max(1, period.attempts()), policy, period.dueDate(), 0, now, period.transactionId(),
            period.amount()));
        case COMPLETED -> {
          if (period.transactionId() != null) {
            int attempt = Math.max(1, period.attempts());
            settled.add(new SettledCharge(period.cycle(), attempt,
                BillingIds.chargeKey(record.subscriptionId(), period.cycle(), attempt),
                period.transactionId(), period.amount()));
          }
        }
        default -> { }
      }
    }
    if (settled.size() > PeriodCollection.MAX_SETTLED) {
      settled = settled.subList(settled.size() - PeriodCollection.MAX_SETTLED, settled.size());
    }
    return new SubscriptionInput(record, true,
        new CollectionState(open, settled, List.of(), List.of(), unpaid));
  }
}
