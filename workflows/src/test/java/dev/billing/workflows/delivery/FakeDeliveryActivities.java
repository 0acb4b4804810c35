package dev.billing.workflows.delivery;

import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.DeliveryActivities;
import dev.billing.workflows.activities.DeliveryFailureInput;
import dev.billing.workflows.activities.DeliveryFailureResult;
import dev.billing.workflows.activities.PlanDeliveriesInput;
import dev.billing.workflows.activities.PlanDeliveriesResult;
import dev.billing.workflows.activities.SettleEventInput;
import dev.billing.workflows.activities.SettleEventResult;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Delivery's steps over an in-memory outbox: every event is owed to the endpoints set, each
 * endpoint answers as scripted, and what reached whom is kept in order.
 */
final class FakeDeliveryActivities implements DeliveryActivities {
  /** How an endpoint answers a POST. */
  enum Answer {
    OK,
    DOWN,
    GONE_410,
    DELETED
  }

  private final LongSupplier clock;
  private volatile List<String> endpoints = List.of("ep_a");
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final Map<String, Long> downUntil = new ConcurrentHashMap<>();
  private final Set<String> finished = ConcurrentHashMap.newKeySet();
  final List<String> received = java.util.Collections.synchronizedList(new ArrayList<>());
  final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
  final List<String> settled = java.util.Collections.synchronizedList(new ArrayList<>());
  final List<Integer> planned = java.util.Collections.synchronizedList(new ArrayList<>());

  FakeDeliveryActivities(LongSupplier clock) {
    this.clock = clock;
  }

  /** When each event's change happened; unset: when it is planned. */
  final Map<String, java.time.Instant> createdAt = new ConcurrentHashMap<>();

  private java.time.Instant now() {
    return java.time.Instant.ofEpochMilli(clock.getAsLong());
  }

  private final Map<String, java.time.Instant> times = new ConcurrentHashMap<>();

  /** When "endpoint:event" was delivered. */
  java.time.Instant receivedAt(String delivery) {
    return times.get("ok " + delivery);
  }

  /** When "endpoint:event" was recorded failed (workflow time). */
  java.time.Instant failedAt(String delivery) {
    return times.get("failed " + delivery);
  }

  void endpoints(String... ids) {
    endpoints = List.of(ids);
  }

  void answer(String endpointId, Answer answer) {
    answers.put(endpointId, answer);
  }

  void downUntil(String endpointId, long epochMillis) {
    downUntil.put(endpointId, epochMillis);
  }

  /** "endpoint:event" in the order they reached the endpoints. */
  List<String> receivedBy(String endpointId) {
    synchronized (received) {
      return received.stream()
          .filter(r -> r.startsWith(endpointId + ":"))
          .map(r -> r.substring(endpointId.length() + 1))
          .toList();
    }
  }

  @Override
  public PlanDeliveriesResult plan(PlanDeliveriesInput input) {
    planned.add(input.eventIds().size());
    List<PlanDeliveriesResult.PlannedEvent> out = new ArrayList<>();
    for (String id : input.eventIds()) {
      List<String> owed = new ArrayList<>();
      for (String endpoint : endpoints) {
        if (input.redelivery() || !finished.contains(endpoint + ":" + id)) {
          owed.add(endpoint);
        }
      }
      if (owed.isEmpty() && !input.redelivery()) {
        settled.add(id);
      }
      out.add(
          new PlanDeliveriesResult.PlannedEvent(
              id, "subscription.created", createdAt.getOrDefault(id, now()), owed));
    }
    return new PlanDeliveriesResult(out);
  }

  @Override
  public DeliverEventResult deliver(DeliverEventInput input) {
    int attempt = Activity.getExecutionContext().getInfo().getAttempt();
    Answer answer = answers.getOrDefault(input.endpointId(), Answer.OK);
    Long until = downUntil.get(input.endpointId());
    if (until != null && clock.getAsLong() < until) {
      answer = Answer.DOWN;
    }
    return switch (answer) {
      case OK -> {
        received.add(input.endpointId() + ":" + input.eventId());
        times.put("ok " + input.endpointId() + ":" + input.eventId(), now());
        finish(input);
        yield new DeliverEventResult(DeliverEventResult.Outcome.DELIVERED, attempt, 200);
      }
      case DOWN -> throw ApplicationFailure.newFailure("503 from the endpoint", "HttpStatus");
      case GONE_410 -> {
        finish(input);
        yield new DeliverEventResult(DeliverEventResult.Outcome.FAILED, attempt, 410);
      }
      case DELETED ->
          new DeliverEventResult(DeliverEventResult.Outcome.ENDPOINT_DELETED, attempt, null);
    };
  }

  private void finish(DeliverEventInput input) {
    finished.add(input.endpointId() + ":" + input.eventId());
    if (input.lastOwed()) {
      settled.add(input.eventId());
    }
  }

  @Override
  public DeliveryFailureResult recordFailure(DeliveryFailureInput input) {
    failures.add(input.endpointId() + ":" + input.eventId() + ":" + input.reason());
    times.put("failed " + input.endpointId() + ":" + input.eventId(), input.at());
    finished.add(input.endpointId() + ":" + input.eventId());
    if (input.lastOwed()) {
      settled.add(input.eventId());
    }
    return new DeliveryFailureResult(true);
  }

  @Override
  public SettleEventResult settle(SettleEventInput input) {
    settled.add(input.eventId());
    return new SettleEventResult(true);
  }

  Set<String> settledSet() {
    synchronized (settled) {
      return new HashSet<>(settled);
    }
  }
}
