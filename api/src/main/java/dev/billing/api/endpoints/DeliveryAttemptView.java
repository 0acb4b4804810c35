package dev.billing.api.endpoints;

import dev.billing.activities.views.Timestamps;
import dev.billing.store.DeliveryAttempt;

/**
 * One attempt at delivering an event to an endpoint, as operators list it.
 *
 * @param attempt the try's number within its delivery, from 1; 0 on the record that ends a delivery
 *     whose retries ran out
 * @param status SUCCEEDED, FAILED_ATTEMPT (retried) or FAILED (given up)
 * @param httpStatus what the endpoint answered; null when it did not
 * @param error why it failed ({@code http_503}, {@code timeout}, {@code connect_failed}, {@code
 *     address_not_public}, {@code retries_exhausted}, ...); null on success
 */
public record DeliveryAttemptView(
    String eventId,
    String eventType,
    String subscriptionId,
    int attempt,
    String status,
    Integer httpStatus,
    String error,
    String at) {

  static DeliveryAttemptView of(DeliveryAttempt attempt) {
    return new DeliveryAttemptView(
        attempt.eventId(),
        attempt.eventType(),
        attempt.subscriptionId(),
        attempt.attempt(),
        attempt.status().name(),
        attempt.httpStatus(),
        attempt.error(),
        Timestamps.instant(attempt.at()));
  }
}
