package dev.billing.store.events;

/**
 * Whose charge a transaction is, as an earlier event of it said (from the charge's metadata).
 * Events that lack our metadata (Stripe's disputes) are routed with it.
 *
 * @param cycle null when the earlier event did not carry it
 * @param idempotencyKey null when the earlier event did not carry it
 */
public record ChargeOwner(String subscriptionId, Long cycle, String idempotencyKey) {}
