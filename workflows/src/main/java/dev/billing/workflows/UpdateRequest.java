package dev.billing.workflows;

/**
 * An update's request that carries the id of the client's request: the API's Idempotency-Key, or an
 * id it generated. The API sends it as the Temporal update id too; a request without one (a client
 * that calls Temporal directly) takes its update's id. The workflow remembers the ids it applied
 * (across continue-as-new) and answers a repeat with the first answer; money a request moves is
 * keyed by it (see {@link dev.billing.domain.BillingIds}).
 */
public interface UpdateRequest<T extends UpdateRequest<T>> {

  /** Null until the API (or the workflow, from the update id) gives it one. */
  String requestId();

  T withRequestId(String requestId);
}
