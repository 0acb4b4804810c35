package dev.billing.api.ops;

/**
 * The answer to {@code POST /v1/ops/reconciliations}.
 *
 * @param id the run's id, under which its report appears ({@code GET /v1/ops/reconciliations/{id}})
 * @param started false when an earlier request with the same Idempotency-Key started this run
 */
public record StartedReconciliationView(String id, String workflowId, boolean started) {}
