package dev.billing.activities.delivery;

import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what {@link EndpointDisabling} decides after each attempt, on the endpoint's item. Every
 * write is conditional on what was read before the attempt, so deliveries to one endpoint from many
 * workflows at once start its streak once, disable it once, and never disable it after a success or
 * an enabling that came in between. A healthy endpoint costs no write: only the first failure after
 * a success and the first success after a failure write, and a failing one a write per {@link
 * EndpointDisabling#NOTE_FAILURE_EVERY} at most to note that it still fails.
 */
final class EndpointHealth {
  private static final Logger log = LoggerFactory.getLogger(EndpointHealth.class);

  private final WebhookEndpointStore endpoints;
  private final EndpointDisabling rule;
  private final Consumer<String> onDisabled;

  EndpointHealth(
      WebhookEndpointStore endpoints, EndpointDisabling rule, Consumer<String> onDisabled) {
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.rule = Objects.requireNonNull(rule, "rule");
    this.onDisabled = Objects.requireNonNull(onDisabled, "onDisabled");
  }

  /**
   * After a failed attempt, recorded at {@code at}, of a delivery to {@code endpoint} as read
   * before it.
   *
   * @return whether the endpoint is disabled now (by this call or by another's just before)
   */
  boolean failed(WebhookEndpoint endpoint, String error, Instant at) {
    switch (rule.afterFailure(error, endpoint.failingSince(), endpoint.lastFailedAt(), at)) {
      case START_STREAK -> endpoints.startFailing(endpoint.id(), at);
      case RESTART_STREAK -> endpoints.restartFailing(endpoint.id(), endpoint.failingSince(), at);
      case NOTE_FAILURE -> endpoints.failedAgain(endpoint.id(), endpoint.failingSince(), at);
      case DISABLE -> {
        if (endpoints.disable(
            endpoint.id(),
            endpoint.failingSince(),
            at,
            rule.reason(endpoint.failingSince(), error))) {
          log.warn(
              "Webhook endpoint {} disabled: every delivery failed since {} (the last: {});"
                  + " nothing is sent to it until an operator enables it"
                  + " (POST /v1/webhook-endpoints/{}/enable)",
              endpoint.id(),
              endpoint.failingSince(),
              error,
              endpoint.id());
          onDisabled.accept(endpoint.id());
          return true;
        }
        // Lost the condition: another delivery disabled it, or a success or an enabling came.
        return endpoints.find(endpoint.id()).map(found -> !found.enabled()).orElse(false);
      }
      case NONE -> {}
    }
    return false;
  }

  /** After a 2xx, recorded at {@code at}, from {@code endpoint} as read before the attempt. */
  void succeeded(WebhookEndpoint endpoint, Instant at) {
    if (!EndpointDisabling.successEndsStreak(endpoint.failingSince())) {
      return;
    }
    try {
      if (endpoints.recovered(endpoint.id(), endpoint.failingSince())) {
        return;
      }
      // Not ended: a newer streak runs (left to the next 2xx), or another delivery disabled it
      // during this POST. A 2xx does not enable it: an operator checks first.
      endpoints
          .find(endpoint.id())
          .filter(found -> !found.enabled())
          .ifPresent(
              found ->
                  log.warn(
                      "Webhook endpoint {} answered 2xx at {} but was disabled at {}; it stays"
                          + " disabled until an operator enables it"
                          + " (POST /v1/webhook-endpoints/{}/enable)",
                      endpoint.id(),
                      at,
                      found.disabledAt(),
                      endpoint.id()));
    } catch (RuntimeException e) {
      log.warn(
          "webhook endpoint {} answered 2xx but its failing streak was not cleared: {}",
          endpoint.id(),
          e.toString());
    }
  }
}
