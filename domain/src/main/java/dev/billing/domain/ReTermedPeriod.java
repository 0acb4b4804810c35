package dev.billing.domain;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A paid period that an immediate term switch re-priced ({@link TermChange#now}). From the switch
 * on, the period's earlier charges (its own, and upgrades charged within it before the switch) no
 * longer pay for their own dates: their unused part was credited and bought the new term's days
 * instead. A cancellation refunding unused days must value them so, not by the old dates.
 *
 * @param cycle the period re-priced (the one in service at the switch)
 * @param from the switch's day, the first day the new term's share paid for
 * @param until the end of the period under the new term (exclusive)
 * @param carried what the earlier charges pay of the new term's days: the old unused days' credit,
 *     at most the new term's share
 * @param excess the credit left over after paying the new term's days, put on the balance (zero
 *     when the credit did not cover the new term's share), with what an earlier switch of the same
 *     period had left there
 * @param consumed the upgrades charged within the period before the switch, each with the unused
 *     part of it that went into the credit: a refund takes from each charge in that proportion
 */
public record ReTermedPeriod(
    long cycle,
    LocalDate from,
    LocalDate until,
    Money carried,
    Money excess,
    List<Share> consumed) {

  /** An upgrade charge's part in the credit, by its key (which a return also names). */
  public record Share(String idempotencyKey, String transactionId, Money amount) {
    public Share {
      Objects.requireNonNull(idempotencyKey, "idempotencyKey");
      Objects.requireNonNull(transactionId, "transactionId");
      Objects.requireNonNull(amount, "amount");
    }
  }

  public ReTermedPeriod {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(until, "until");
    Objects.requireNonNull(carried, "carried");
    Objects.requireNonNull(excess, "excess");
    consumed = consumed == null ? List.of() : List.copyOf(consumed);
    if (!from.isBefore(until)) {
      throw new IllegalArgumentException("from " + from + " is not before until " + until);
    }
    if (carried.minor() < 0 || excess.minor() < 0) {
      throw new IllegalArgumentException("carried and excess are never negative");
    }
  }

  /**
   * The period as {@code change} re-priced it on {@code today}, for {@code sub} as it was before
   * the switch.
   *
   * @return null when nothing paid was running (no credit)
   */
  public static ReTermedPeriod of(TermChange.Immediate change, Subscription sub, LocalDate today) {
    long paidCycle = sub.cycle() - 1;
    Money balance = sub.lifecycle().balance();
    // Days a billing-day move added are priced into the credit but charged only with the next
    // charge: while that charge is still on the balance, they carry no money of the old charges.
    Money uncollected = Money.zero(change.credit().currency());
    if (paidCycle >= 1 && balance != null && balance.minor() > 0) {
      PaidPeriod running = PaidPeriod.running(sub);
      if (running.addedDays() > 0) {
        Money added =
            running
                .left(sub.price(), today)
                .minus(
                    Proration.share(
                        sub.price(),
                        Proration.daysLeft(today, running.paidUntil()),
                        running.paidDays()));
        uncollected =
            new Money(Math.max(0, Math.min(added.minor(), balance.minor())), added.currency());
      }
    }
    return of(
        change,
        paidCycle,
        today,
        sub.lifecycle().upgradesPaid(),
        sub.lifecycle().reTermed(),
        balance,
        uncollected);
  }

  /**
   * The period as {@code change} re-priced it on {@code today}.
   *
   * @param paid the upgrade charges kept on the subscription (those of {@code paidCycle} were
   *     charged before the switch)
   * @param previous the period as an earlier switch re-priced it; null when none
   * @param balance the balance before this switch
   * @param uncollected the part of the credit no charge has collected yet (added days still on the
   *     balance)
   * @return null when nothing paid was running (no credit)
   */
  public static ReTermedPeriod of(
      TermChange.Immediate change,
      long paidCycle,
      LocalDate today,
      List<PaidUpgradeCharge> paid,
      ReTermedPeriod previous,
      Money balance,
      Money uncollected) {
    Money credit = change.credit().minus(uncollected);
    if (change.credit().minor() <= 0 || credit.minor() <= 0) {
      return null;
    }
    Money carried = credit.minor() <= change.charge().minor() ? credit : change.charge();
    Money excess = credit.minus(carried);
    if (previous != null && previous.cycle() == paidCycle) {
      // The earlier switch's credit is on the balance, not in this one's: it stays owed back.
      excess = excess.plus(ReTermedRefund.creditLeft(previous, balance));
    }
    List<Share> shares = new ArrayList<>();
    for (PaidUpgradeCharge upgrade : paid) {
      if (upgrade.cycle() != paidCycle) {
        continue;
      }
      long covered = Proration.daysLeft(upgrade.from(), upgrade.until());
      long unused = Math.min(covered, Proration.daysLeft(today, upgrade.until()));
      if (covered <= 0 || unused <= 0) {
        continue;
      }
      shares.add(
          new Share(
              upgrade.idempotencyKey(),
              upgrade.transactionId(),
              Proration.shareRoundedDown(upgrade.amount(), unused, covered)));
    }
    return new ReTermedPeriod(paidCycle, today, change.nextDue(), carried, excess, shares);
  }

  /** Whether {@code upgrade} was charged within the re-priced period before the switch. */
  public boolean consumed(PaidUpgradeCharge upgrade) {
    return upgrade.cycle() == cycle
        && consumed.stream().anyMatch(s -> s.idempotencyKey().equals(upgrade.idempotencyKey()));
  }

  /** This period after {@code back} of the switch's credit was refunded. */
  public ReTermedPeriod withCreditRefunded(Money back) {
    return new ReTermedPeriod(cycle, from, until, carried, excess.minus(back), consumed);
  }

  /**
   * The period's own charge's part in what the earlier charges carry: all of it but the upgrades'
   * shares.
   */
  public Money ownShare() {
    long upgrades = consumed.stream().mapToLong(s -> s.amount().minor()).sum();
    long own = carried.minor() + excess.minor() - upgrades;
    return new Money(Math.max(0, own), carried.currency());
  }
}
