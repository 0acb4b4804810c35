package dev.billing.store.events;

import java.time.Instant;

/** A stored event of one subscription, as the subscription index knows it. */
public record SubscriptionEvent(String provider, String eventId, String type, Instant occurredAt) {}
