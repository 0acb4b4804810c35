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
   * @param available what is left to refund of it, not counting this refund's own earlier try
   */
  public record Source(String transactionId, Money available, boolean own) {}

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

  /** {@code owed} taken from the sources in their order, each up to what it has left. */
  public static List<Part> split(Money owed, List<Source> sources) {
    List<Part> parts = new ArrayList<>();
    long left = owed.minor();
    for (Source source : sources) {
      if (left <= 0) {
        break;
      }
      long take = Math.min(left, source.available().minor());
      if (take > 0) {
        parts.add(new Part(source.transactionId(), new Money(take, owed.currency()), source.own()));
        left -= take;
      }
    }
    return parts;
  }
}
