package dev.billing.activities.delivery;

import dev.billing.store.EventDeliveryStore;
import dev.billing.store.UndeliveredEvent;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.workflows.activities.EventSweepActivities;
import dev.billing.workflows.activities.EventSweepInput;
import dev.billing.workflows.activities.EventSweepResult;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code EventsUndelivered} partitions of the last days, oldest day first, and signals
 * each subscription's delivery workflow once with its owed events; the workflow looks each up again
 * and ignores what it holds or has finished. With no endpoint at all, the events are settled here
 * instead, one write each, without a workflow.
 */
public final class EventSweepActivitiesImpl implements EventSweepActivities {
  private static final Logger log = LoggerFactory.getLogger(EventSweepActivitiesImpl.class);

  /** Younger events are left to the signal their record activity is sending. */
  static final Duration GRACE = Duration.ofMinutes(1);

  private final EventDeliveryStore deliveries;
  private final WebhookEndpointStore endpoints;
  private final DeliverySignals signals;

  public EventSweepActivitiesImpl(
      EventDeliveryStore deliveries, WebhookEndpointStore endpoints, DeliverySignals signals) {
    this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
    this.signals = Objects.requireNonNull(signals, "signals");
  }

  @Override
  public EventSweepResult sweep(EventSweepInput input) {
    Instant before = input.asOf().minus(GRACE);
    LocalDate today = LocalDate.ofInstant(input.asOf(), ZoneOffset.UTC);
    List<UndeliveredEvent> found = new ArrayList<>();
    int shards = deliveries.shards();
    for (LocalDate day = today.minusDays(input.lookbackDays());
        !day.isAfter(today) && found.size() < input.limit();
        day = day.plusDays(1)) {
      for (int shard = 0; shard < shards && found.size() < input.limit(); shard++) {
        found.addAll(deliveries.undelivered(day, shard, before, input.limit() - found.size()));
      }
    }
    if (found.isEmpty()) {
      return new EventSweepResult(0, 0, 0);
    }
    if (endpoints.all().isEmpty()) {
      found.forEach(event -> deliveries.settle(event.eventId()));
      return new EventSweepResult(found.size(), 0, found.size());
    }
    Map<String, List<String>> bySubscription = new LinkedHashMap<>();
    for (UndeliveredEvent event : found) {
      bySubscription
          .computeIfAbsent(event.subscriptionId(), s -> new ArrayList<>())
          .add(event.eventId());
    }
    bySubscription.forEach(signals::eventsRecorded);
    log.info(
        "Event sweep: {} owed events of {} subscriptions signalled to delivery",
        found.size(),
        bySubscription.size());
    return new EventSweepResult(found.size(), bySubscription.size(), 0);
  }
}
