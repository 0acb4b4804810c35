package dev.billing.bench.report;

/**
 * One reported figure.
 *
 * @param key stable identifier in the JSON report
 * @param unit e.g. "cycles/s", "actions", "ms", "USD"
 */
public record Figure(String key, String label, String unit, Summary value) {}
