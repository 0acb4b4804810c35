package dev.billing.api.resources;

/** Optional body of the cancel endpoint. */
public record CancelSubscriptionRequest(String reason) {
  public static final int MAX_REASON = 500;
}
