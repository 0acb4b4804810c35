package dev.billing.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One try at posting an event to a webhook endpoint, or the end of its delivery.
 *
 * @param attempt the activity's attempt number, 1 for the first POST of this delivery
 * @param httpStatus the endpoint's answer, or null when there was none (refused, timed out)
 * @param error a short class of what went wrong ("http_503", "timeout", "connect_failed",
 *     "address_not_public", ...), or null on success; never a secret or a response body
 */
public record DeliveryAttempt(
    String endpointId,
    String eventId,
    String eventType,
    String subscriptionId,
    int attempt,
    Status status,
    Integer httpStatus,
    String error,
    Instant at) {

  /** What an attempt came to. */
  public enum Status {
    /** The endpoint answered 2xx: delivered. */
    SUCCEEDED,
    /** This try failed; another follows with backoff. */
    FAILED_ATTEMPT,
    /** No more tries: the retry window (three days) ran out, or the failure is final. */
    FAILED
  }

  public DeliveryAttempt {
    Objects.requireNonNull(endpointId, "endpointId");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(at, "at");
  }
}
