package dev.billing.workflows.activities;

/**
 * @param found owed events read from the index
 * @param signalled delivery workflows signalled (one per subscription)
 * @param settled events taken off the index because no endpoint wants them
 */
public record EventSweepResult(int found, int signalled, int settled) {}
