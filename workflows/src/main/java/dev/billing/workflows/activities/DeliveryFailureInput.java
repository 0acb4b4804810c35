package dev.billing.workflows.activities;

import java.time.Instant;

/**
 * @param reason what ended it, e.g. "retries_exhausted"
 * @param at workflow time: a retried write of this record writes the same item
 */
public record DeliveryFailureInput(
    String eventId,
    String eventType,
    String subscriptionId,
    String endpointId,
    boolean lastOwed,
    String reason,
    Instant at) {}
