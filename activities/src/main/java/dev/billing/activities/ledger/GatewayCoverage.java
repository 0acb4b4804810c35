package dev.billing.activities.ledger;

import java.util.Objects;
import java.util.Set;

/**
 * How much of the gateway's side the caller gave. A test or the benchmark lists every charge of the
 * subscription ({@link #complete()}): a recorded transaction missing from the list is missing at
 * the gateway. Reconciliation lists one day's charges ({@link #partial}): it names the recorded
 * transactions it asked the gateway about and did not find; the others are not judged.
 *
 * @param everyCharge every charge the gateway holds for the subscription is given
 * @param absent transactions the gateway was asked about and does not have (partial only)
 */
public record GatewayCoverage(boolean everyCharge, Set<String> absent) {

  public GatewayCoverage {
    absent = Set.copyOf(Objects.requireNonNull(absent, "absent"));
  }

  public static GatewayCoverage complete() {
    return new GatewayCoverage(true, Set.of());
  }

  public static GatewayCoverage partial(Set<String> absent) {
    return new GatewayCoverage(false, absent);
  }
}
