package dev.billing.workflows;

/**
 * Forgive an unpaid (ERROR) period without payment.
 *
 * @param cycle the period's id
 * @param requestedBy the principal that asked, kept in the history
 */
public record WaiveRequest(long cycle, String reason, String requestedBy) {}
