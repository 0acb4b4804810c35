package dev.billing.api.resources;

/**
 * Optional body of POST .../reactivate. Its request id is the Idempotency-Key header, as for every
 * change.
 */
public record ReactivateSubscriptionRequest(String reason) {}
