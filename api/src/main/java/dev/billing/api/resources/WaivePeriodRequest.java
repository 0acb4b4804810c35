package dev.billing.api.resources;

/** Optional body of POST .../periods/{periodId}/waive. */
public record WaivePeriodRequest(String reason) {}
