package dev.billing.workflows;

/** @param requestedBy the principal that asked, kept in the history */
public record ResumeRequest(String requestedBy) {}
