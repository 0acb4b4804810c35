package dev.billing.api.subscriptions;

/**
 * The subscription's workflow started but did not record the subscription in time (no worker
 * polling, DynamoDB slow). It will record it once a worker runs: the API answers 202 with the
 * subscription's Location rather than an error a client would retry into a second subscription.
 */
public final class NotRecordedYet extends RuntimeException {
  private final String subscriptionId;

  public NotRecordedYet(String subscriptionId) {
    super("subscription " + subscriptionId + " is not recorded yet", null, false, false);
    this.subscriptionId = subscriptionId;
  }

  public String subscriptionId() {
    return subscriptionId;
  }
}
