package dev.billing.activities.delivery;

import dev.billing.domain.MerchantEvent;
import dev.billing.domain.MerchantEvents;
import dev.billing.domain.RecordInput;
import dev.billing.store.MerchantEventStore;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signals the subscription's delivery workflow with the change's event ids when some endpoint wants
 * one of them. With no such endpoint nothing starts (a change costs no Temporal action more): the
 * sweep takes the events off the index later. A failed signal is logged, not thrown, so billing
 * never waits for delivery: the next change's planning queues the events ahead of its own (they
 * stay owed), and without one the sweep signals again within minutes.
 */
public final class EndpointDeliveryHandoff implements DeliveryHandoff {
  private static final Logger log = LoggerFactory.getLogger(EndpointDeliveryHandoff.class);

  private final WebhookEndpointStore endpoints;
  private final DeliverySignals signals;

  public EndpointDeliveryHandoff(WebhookEndpointStore endpoints, DeliverySignals signals) {
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.signals = Objects.requireNonNull(signals, "signals");
  }

  @Override
  public void committed(RecordInput change) {
    String subscriptionId = change.next().subscriptionId();
    try {
      List<MerchantEvent> events = MerchantEvents.of(change);
      if (events.isEmpty()) {
        return;
      }
      List<WebhookEndpoint> all = endpoints.all();
      boolean wanted =
          events.stream().anyMatch(e -> all.stream().anyMatch(ep -> ep.wants(e.type().wireName())));
      if (wanted) {
        signals.eventsRecorded(subscriptionId, MerchantEventStore.idsOf(change));
      }
    } catch (RuntimeException e) {
      log.warn(
          "Events of subscription {} version {} not handed to delivery ({}); the sweep will",
          subscriptionId,
          change.next().version(),
          e.toString());
    }
  }
}
