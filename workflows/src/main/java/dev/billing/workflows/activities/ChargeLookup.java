package dev.billing.workflows.activities;

import java.time.Instant;

/**
 * What the gateway knows about one idempotency key.
 *
 * @param transactionId null when NOT_FOUND
 * @param failureCode the decline, failure or return code; null otherwise
 */
public record ChargeLookup(
    Status status,
    String transactionId,
    Instant processedAt,
    String failureCode,
    String failureMessage) {

  public enum Status {
    /** No charge was created with this key: the money did not move. */
    NOT_FOUND,
    SUCCEEDED,
    /** Accepted, not yet settled (bank debit). */
    PENDING,
    /** Declined or failed. */
    FAILED,
    /** Settled, then returned. */
    RETURNED
  }
}
