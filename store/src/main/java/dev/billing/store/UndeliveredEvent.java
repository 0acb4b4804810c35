package dev.billing.store;

/** An event the {@code EventsUndelivered} index lists as still owed: what a sweep signals. */
public record UndeliveredEvent(String subscriptionId, String eventId) {}
