package dev.billing.workflows.activities;

/**
 * @param version the version now stored
 * @param alreadyApplied true when an earlier attempt had committed this change
 */
public record RecordResult(long version, boolean alreadyApplied) {}
