package dev.billing.activities.delivery;

import dev.billing.store.EventDeliveryStore;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What delivery's activities use ({@link DeliveryActivitiesImpl}).
 *
 * @param clock the time attempts are recorded at (the dev stack's follows its test clock); the
 *     signature's timestamp is always the real time, which is what a product checks it against
 * @param disabling when an endpoint that keeps failing is disabled
 * @param onDisabled told the id of each endpoint this worker disabled (a metric)
 */
public record DeliveryDependencies(
    EventDeliveryStore deliveries,
    WebhookEndpointStore endpoints,
    WebhookPoster poster,
    DeliveryAddresses addresses,
    InstantSource clock,
    EndpointDisabling disabling,
    Consumer<String> onDisabled) {
  public DeliveryDependencies {
    Objects.requireNonNull(deliveries, "deliveries");
    Objects.requireNonNull(endpoints, "endpoints");
    Objects.requireNonNull(poster, "poster");
    Objects.requireNonNull(addresses, "addresses");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(disabling, "disabling");
    Objects.requireNonNull(onDisabled, "onDisabled");
  }

  /** Endpoints disabled after {@link EndpointDisabling#DEFAULT_AFTER}, counted nowhere. */
  public DeliveryDependencies(
      EventDeliveryStore deliveries,
      WebhookEndpointStore endpoints,
      WebhookPoster poster,
      DeliveryAddresses addresses,
      InstantSource clock) {
    this(
        deliveries,
        endpoints,
        poster,
        addresses,
        clock,
        new EndpointDisabling(EndpointDisabling.DEFAULT_AFTER),
        id -> {});
  }

  public DeliveryDependencies withDisabling(EndpointDisabling rule, Consumer<String> listener) {
    return new DeliveryDependencies(
        deliveries, endpoints, poster, addresses, clock, rule, listener);
  }
}
