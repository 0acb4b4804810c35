package dev.billing.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The unused money of a period a term switch re-priced ({@link ReTermedPeriod}), refunded at an
 * immediate cancellation. The old dates no longer count: the earlier charges paid the new term's
 * days from the switch on ({@code carried}), refunded pro rata of those days, rounded down with
 * today counted as used as any unused-days refund is; and any credit the switch left on the balance
 * and no charge has used yet is refunded whole, since it is money paid for days the customer will
 * not get. Upgrades charged after the switch are refunded over their own days, as in any period.
 * Pure: safe in workflow code.
 */
public final class ReTermedRefund {
  private ReTermedRefund() {}

  /**
   * A charge the refund may come from.
   *
   * @param transactionId null when the period's own charge took no money (credit paid it)
   * @param available what is left to refund of it, not counting this refund's own earlier try
   * @param weight its part in the switch's credit ({@link ReTermedPeriod#ownShare}, {@link
   *     ReTermedPeriod.Share})
   */
  public record Source(String transactionId, Money available, boolean own, Money weight) {}

  /** One refund of one charge. */
  public record Part(String transactionId, Money amount, boolean own) {}

  /**
   * What is owed back on {@code today}.
   *
   * @param balance the subscription's balance now (negative: a credit); null when none
   */
  public static Money owed(ReTermedPeriod period, LocalDate today, Money balance) {
    long covered = Proration.daysLeft(period.from(), period.until());
    long unused = Math.min(covered, Proration.daysLeft(today.plusDays(1), period.until()));
    Money zero = Money.zero(period.carried().currency());
    Money days = unused <= 0 ? zero : Proration.shareRoundedDown(period.carried(), unused, covered);
    return days.plus(creditLeft(period, balance));
  }

  /** The switch's excess credit still on the balance: later charges may have used some of it. */
  public static Money creditLeft(ReTermedPeriod period, Money balance) {
    Money zero = Money.zero(period.excess().currency());
    if (balance == null || balance.minor() >= 0) {
      return zero;
    }
    long credit = -balance.minor();
    return credit >= period.excess().minor()
        ? period.excess()
        : new Money(credit, balance.currency());
  }

  /**
   * {@code owed} split over the sources in proportion to their weights (rounded down, the cents
   * left to the first that has room), each part at most what its charge has left: what no charge
   * has left is not refunded, never taken from another charge.
   */
  public static List<Part> split(Money owed, List<Source> sources) {
    long total = sources.stream().mapToLong(s -> Math.max(0, s.weight().minor())).sum();
    long[] take = new long[sources.size()];
    long assigned = 0;
    for (int i = 0; i < sources.size(); i++) {
      Source source = sources.get(i);
      long weight = Math.max(0, source.weight().minor());
      long share =
          total == 0
              ? (source.own() ? owed.minor() : 0)
              : java.math.BigInteger.valueOf(owed.minor())
                  .multiply(java.math.BigInteger.valueOf(weight))
                  .divide(java.math.BigInteger.valueOf(total))
                  .longValueExact();
      take[i] = share;
      assigned += share;
    }
    long cents = owed.minor() - assigned;
    for (int i = 0; i < sources.size() && cents > 0; i++) {
      boolean weighted = total == 0 ? sources.get(i).own() : sources.get(i).weight().minor() > 0;
      if (weighted && take[i] < sources.get(i).available().minor()) {
        long add = Math.min(cents, sources.get(i).available().minor() - take[i]);
        take[i] += add;
        cents -= add;
      }
    }
    List<Part> parts = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      Source source = sources.get(i);
      long amount = Math.min(take[i], source.available().minor());
      if (amount > 0 && source.transactionId() != null) {
        parts.add(
            new Part(source.transactionId(), new Money(amount, owed.currency()), source.own()));
      }
    }
    return parts;
  }
}
