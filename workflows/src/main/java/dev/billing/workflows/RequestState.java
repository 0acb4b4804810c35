package dev.billing.workflows;

import java.util.List;

/**
 * What the workflow remembers of client requests from one run to the next (bounded): the ids it
 * applied with their first answers, changes whose money is still unknown, and the upgrade charges
 * of the paid period.
 */
public record RequestState(
    List<AppliedRequest> applied,
    List<PendingUpgrade> upgrades,
    List<PendingRefund> refunds,
    List<UpgradeCharge> upgradeCharges) {

  public static final RequestState EMPTY =
      new RequestState(List.of(), List.of(), List.of(), List.of());

  public RequestState {
    applied = applied == null ? List.of() : List.copyOf(applied);
    upgrades = upgrades == null ? List.of() : List.copyOf(upgrades);
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
    upgradeCharges = upgradeCharges == null ? List.of() : List.copyOf(upgradeCharges);
  }
}
