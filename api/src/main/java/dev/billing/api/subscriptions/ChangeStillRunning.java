package dev.billing.api.subscriptions;

/**
 * The subscription's workflow accepted a change (its validator passed) but did not finish it in
 * time, e.g. a charge or a refund still waiting for the gateway. It will finish: the API answers 202
 * with the subscription's Location, never an error that invites a retry asking for it twice.
 */
public final class ChangeStillRunning extends RuntimeException {
  private final String subscriptionId;

  public ChangeStillRunning(String subscriptionId) {
    super("a change of subscription " + subscriptionId + " is still running", null, false, false);
    this.subscriptionId = subscriptionId;
  }

  public String subscriptionId() {
    return subscriptionId;
  }
}
