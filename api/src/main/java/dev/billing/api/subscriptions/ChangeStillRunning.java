package dev.billing.api.subscriptions;

/**
 * The subscription's workflow accepted a change (its validator passed) but did not finish it in
 * time, e.g. a charge or a refund still waiting for the gateway, or it finished it with money whose
 * outcome is not known yet (the workflow resolves it). Either way the API answers 202 with the
 * subscription's Location and the request id to retry with, never an error that invites a retry
 * asking for it twice.
 */
public final class ChangeStillRunning extends RuntimeException {
  private final String subscriptionId;
  private final String requestId;
  private final String pending;

  public ChangeStillRunning(String subscriptionId) {
    this(subscriptionId, null, null);
  }

  /**
   * @param requestId the change's request id (its Idempotency-Key); null when not known
   * @param pending what is pending, as the workflow put it; null when the change is still running
   */
  public ChangeStillRunning(String subscriptionId, String requestId, String pending) {
    super("a change of subscription " + subscriptionId + " is still running", null, false, false);
    this.subscriptionId = subscriptionId;
    this.requestId = requestId;
    this.pending = pending;
  }

  public String subscriptionId() {
    return subscriptionId;
  }

  public String requestId() {
    return requestId;
  }

  public String pending() {
    return pending;
  }
}
