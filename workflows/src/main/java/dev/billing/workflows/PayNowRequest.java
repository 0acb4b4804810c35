package dev.billing.workflows;

/**
 * Manual repayment (seed 004's MANUAL_REPAYMENT): charge the oldest unpaid period now.
 *
 * @param requestedBy the principal that asked, kept in the history
 */
public record PayNowRequest(String requestedBy) {}
