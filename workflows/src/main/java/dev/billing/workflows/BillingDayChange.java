package dev.billing.workflows;

/**
 * Move the billing anchor to another day of the month.
 *
 * @param billingDay 1-31, clamped to the end of shorter months
 * @param requestedBy the principal that asked, kept in the history
 */
public record BillingDayChange(int billingDay, String requestedBy) {}
