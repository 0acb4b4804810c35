package dev.billing.workflows.reconciliation;

/**
 * The one subscription a {@link SubscriptionRepairWorkflow} checks.
 *
 * @param repair false: report only, change nothing
 * @param trigger who started it and why: "api:<principal> workflow-not-found", "api:<principal>"
 */
public record SubscriptionRepairInput(
    String accountId, String subscriptionId, boolean repair, String trigger) {

  public SubscriptionRepairInput {
    trigger = trigger == null || trigger.isBlank() ? "unknown" : trigger;
  }

  /**
   * Not checked in the constructor: a run started by hand with a bad input fails readably instead.
   */
  boolean namesASubscription() {
    return accountId != null
        && !accountId.isBlank()
        && subscriptionId != null
        && !subscriptionId.isBlank();
  }
}
