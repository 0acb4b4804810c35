package dev.billing.workflows.activities;

/** Which period record to read. */
public record LoadPeriodInput(String accountId, String subscriptionId, long cycle) {}
