package dev.billing.workflows.reconciliation;

/**
 * The one subscription a run checks instead of a window of due dates: what the API asks for when a
 * change finds no running workflow, whatever the subscription's next date (an open-ended pause has
 * none, so no window would ever reach it).
 */
public record ReconciliationTarget(String accountId, String subscriptionId) {

  public ReconciliationTarget {
    if (accountId == null || accountId.isBlank() || subscriptionId == null || subscriptionId.isBlank()) {
      throw new IllegalArgumentException("a target names its account and subscription");
    }
  }
}
