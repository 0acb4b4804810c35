package dev.billing.workflows;

import java.time.Instant;

/**
 * A client request the workflow took on, remembered (bounded, across continue-as-new) so a repeat
 * of its id is answered as the first time and the same id with another request is refused.
 *
 * @param fingerprint {@link UpdateRequests#fingerprint} of the request
 * @param outcome the sentence of the first answer (for FAILED, the failure's message)
 * @param failureType the first answer's failure type (FAILED only)
 */
public record AppliedRequest(
    String requestId,
    String fingerprint,
    Status status,
    String outcome,
    String failureType,
    Instant at) {

  public enum Status {
    APPLIED,
    /**
     * Taken on, its money's outcome not known when it answered: the workflow resolves it (see
     * {@link RequestLog}) and records the outcome in the subscription's history. A repeat keeps
     * getting this first answer, as Temporal gives it within a run.
     */
    PENDING,
    /** Refused or declined when applied. */
    FAILED
  }
}
