package dev.billing.workflows;

/**
 * @param reason free text kept in the history
 * @param requestedBy the principal that asked, kept in the history
 */
public record CancelRequest(String reason, String requestedBy) {}
