package dev.billing.api.errors;

/**
 * One invalid input, named so a client can point at it.
 *
 * @param field a body field path ("amount", "items[0].sku"), a path or query parameter
 *     ("subscriptionId", "pageToken") or a header ("Idempotency-Key"); null for the body as a whole
 */
public record FieldError(String field, String message) {}
