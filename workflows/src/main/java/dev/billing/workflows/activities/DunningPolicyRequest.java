package dev.billing.workflows.activities;

/**
 * The period that is entering dunning (for the log; the policy is the same for every period today).
 */
public record DunningPolicyRequest(String subscriptionId, long cycle) {}
