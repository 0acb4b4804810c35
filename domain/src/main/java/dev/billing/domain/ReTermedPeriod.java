package dev.billing.domain;

import java.time.LocalDate;
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
 *     when the credit did not cover the new term's share)
 */
public record ReTermedPeriod(
    long cycle, LocalDate from, LocalDate until, Money carried, Money excess) {

  public ReTermedPeriod {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(until, "until");
    Objects.requireNonNull(carried, "carried");
    Objects.requireNonNull(excess, "excess");
    if (!from.isBefore(until)) {
      throw new IllegalArgumentException("from " + from + " is not before until " + until);
    }
    if (carried.minor() < 0 || excess.minor() < 0) {
      throw new IllegalArgumentException("carried and excess are never negative");
    }
  }

  /** Whether {@code upgrade} was charged within the re-priced period before the switch. */
  public boolean consumed(PaidUpgradeCharge upgrade) {
    return upgrade.cycle() == cycle
        && (upgrade.from().isBefore(from) || !upgrade.until().equals(until));
  }
}
