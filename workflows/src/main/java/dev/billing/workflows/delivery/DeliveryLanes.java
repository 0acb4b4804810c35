package dev.billing.workflows.delivery;

import dev.billing.workflows.delivery.DeliveryInput.Lane;
import dev.billing.workflows.delivery.DeliveryInput.QueuedEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The delivery workflow's queues, as plain rules: one lane per endpoint, each in the events' order
 * ({@link EventOrder}), at most one delivery in flight per lane, and which event is settled (owed
 * to no endpoint any more) when. An event's owed endpoints are the lanes that hold it (redeliveries
 * aside), so nothing else needs carrying across continue-as-new. Not thread-safe: the workflow's
 * main thread owns it.
 */
public final class DeliveryLanes {

  /**
   * A delivery to start.
   *
   * @param lastOwed no other lane holds the event: this delivery's end takes it off the index
   */
  public record Start(String endpointId, QueuedEvent event, boolean lastOwed) {}

  private final Map<String, List<QueuedEvent>> lanes = new LinkedHashMap<>();
  private final Map<String, Start> inFlight = new LinkedHashMap<>();

  public DeliveryLanes(List<Lane> carried) {
    for (Lane lane : carried) {
      lanes.put(lane.endpointId(), new ArrayList<>(lane.events()));
    }
  }

  /**
   * Queues an event for each endpoint, in order. A recorded event already queued for an endpoint is
   * not queued twice (in flight counts as queued); a redelivery is queued once more unless one is
   * queued already.
   */
  public void add(QueuedEvent event, List<String> endpointIds) {
    for (String endpointId : endpointIds) {
      List<QueuedEvent> lane = lanes.computeIfAbsent(endpointId, id -> new ArrayList<>());
      boolean queued =
          lane.stream()
              .anyMatch(
                  e -> e.eventId().equals(event.eventId()) && e.redelivery() == event.redelivery());
      if (queued) {
        continue;
      }
      // After every event not later than it, and never before the head in flight.
      int at = lane.size();
      int first = inFlight.containsKey(endpointId) ? 1 : 0;
      while (at > first
          && EventOrder.BY_ID.compare(lane.get(at - 1).eventId(), event.eventId()) > 0) {
        at--;
      }
      lane.add(at, event);
    }
  }

  /** Whether an event is queued or in flight for some endpoint (redeliveries aside). */
  public boolean holds(String eventId) {
    return owedBy(eventId, null) > 0;
  }

  private int owedBy(String eventId, String exceptEndpoint) {
    int count = 0;
    for (Map.Entry<String, List<QueuedEvent>> lane : lanes.entrySet()) {
      if (lane.getKey().equals(exceptEndpoint)) {
        continue;
      }
      for (QueuedEvent e : lane.getValue()) {
        if (!e.redelivery() && e.eventId().equals(eventId)) {
          count++;
          break;
        }
      }
    }
    return count;
  }

  /** The heads of the lanes with nothing in flight, now marked in flight. */
  public List<Start> startable() {
    List<Start> starts = new ArrayList<>();
    for (Map.Entry<String, List<QueuedEvent>> lane : lanes.entrySet()) {
      String endpointId = lane.getKey();
      if (inFlight.containsKey(endpointId) || lane.getValue().isEmpty()) {
        continue;
      }
      QueuedEvent head = lane.getValue().get(0);
      Start start =
          new Start(
              endpointId, head, !head.redelivery() && owedBy(head.eventId(), endpointId) == 0);
      inFlight.put(endpointId, start);
      starts.add(start);
    }
    return starts;
  }

  /**
   * The delivery in flight on an endpoint ended (delivered or given up).
   *
   * @return the event id to settle with a write of its own (its last owed endpoint finished, but
   *     the delivery that did so did not know it was the last when it started), or null
   */
  public String finished(String endpointId) {
    Start start = inFlight.remove(endpointId);
    if (start == null) {
      throw new IllegalStateException("nothing in flight on endpoint " + endpointId);
    }
    List<QueuedEvent> lane = lanes.get(endpointId);
    lane.remove(0);
    if (lane.isEmpty()) {
      lanes.remove(endpointId);
    }
    QueuedEvent event = start.event();
    return !event.redelivery() && !start.lastOwed() && !holds(event.eventId())
        ? event.eventId()
        : null;
  }

  /**
   * The endpoint is gone (deleted): its lane is dropped.
   *
   * @return the events it was the last owed endpoint of, to settle
   */
  public List<String> dropped(String endpointId) {
    inFlight.remove(endpointId);
    List<QueuedEvent> lane = lanes.remove(endpointId);
    List<String> settle = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (QueuedEvent e : lane == null ? List.<QueuedEvent>of() : lane) {
      if (!e.redelivery() && seen.add(e.eventId()) && !holds(e.eventId())) {
        settle.add(e.eventId());
      }
    }
    return settle;
  }

  public boolean inFlight() {
    return !inFlight.isEmpty();
  }

  public boolean isEmpty() {
    return lanes.isEmpty();
  }

  /** The lanes as they stand, for continue-as-new; only when nothing is in flight. */
  public List<Lane> snapshot() {
    if (inFlight()) {
      throw new IllegalStateException("a delivery is in flight");
    }
    List<Lane> out = new ArrayList<>();
    lanes.forEach((endpointId, events) -> out.add(new Lane(endpointId, events)));
    return out;
  }
}
