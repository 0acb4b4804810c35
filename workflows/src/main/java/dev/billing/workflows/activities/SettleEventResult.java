package dev.billing.workflows.activities;

/** Nothing to report beyond success; a record so the contract can grow. */
public record SettleEventResult(boolean settled) {}
