package dev.billing.store.events;

import java.time.Instant;

/**
 * A stored event as the date index knows it: enough for the replay poller to tell which of the
 * provider's events need no replay.
 */
public record EventRef(String provider, String eventId, Instant occurredAt) {}
