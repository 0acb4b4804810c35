package dev.billing.bench.scenarios;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the time of one billed cycle goes, from its run's history: from the payment timer firing to
 * the charge being scheduled, waiting for a worker slot, charging, scheduling the record, waiting,
 * recording, and continuing as new. Times are the server's event times (real time: the test server
 * does not skip time while tasks are outstanding).
 */
final class CycleTimeline {
  static final List<String> SEGMENTS =
      List.of(
          "timer fired -> charge scheduled (workflow task)",
          "charge scheduled -> started (queued for a slot)",
          "charge started -> completed (gateway)",
          "charge completed -> record scheduled (workflow task)",
          "record scheduled -> started (queued for a slot)",
          "record started -> completed (DynamoDB transaction)",
          "record completed -> continued as new (workflow task)",
          "timer fired -> continued as new (whole cycle)");

  private CycleTimeline() {}

  /** Milliseconds per segment; empty when the run is not a paid cycle. */
  static Map<String, Double> of(List<HistoryEvent> events) {
    Map<Long, HistoryEvent> byId = new LinkedHashMap<>();
    events.forEach(e -> byId.put(e.getEventId(), e));
    HistoryEvent chargeScheduled = null;
    HistoryEvent recordScheduled = null;
    for (HistoryEvent e : events) {
      if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
        String type = e.getActivityTaskScheduledEventAttributes().getActivityType().getName();
        if (chargeScheduled == null && type.equals("ChargePaymentMethod")) {
          chargeScheduled = e;
        } else if (chargeScheduled != null
            && recordScheduled == null
            && type.equals("RecordChange")) {
          recordScheduled = e;
        }
      }
    }
    HistoryEvent last = events.get(events.size() - 1);
    if (chargeScheduled == null
        || recordScheduled == null
        || last.getEventType() != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW) {
      return Map.of();
    }
    HistoryEvent timerFired = lastBefore(events, chargeScheduled, EventType.EVENT_TYPE_TIMER_FIRED);
    HistoryEvent chargeStarted =
        activityEvent(events, chargeScheduled, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED);
    HistoryEvent chargeCompleted =
        activityEvent(events, chargeScheduled, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
    HistoryEvent recordStarted =
        activityEvent(events, recordScheduled, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED);
    HistoryEvent recordCompleted =
        activityEvent(events, recordScheduled, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
    if (timerFired == null
        || chargeStarted == null
        || chargeCompleted == null
        || recordStarted == null
        || recordCompleted == null) {
      return Map.of();
    }
    Map<String, Double> ms = new LinkedHashMap<>();
    ms.put(SEGMENTS.get(0), between(timerFired, chargeScheduled));
    ms.put(SEGMENTS.get(1), between(chargeScheduled, chargeStarted));
    ms.put(SEGMENTS.get(2), between(chargeStarted, chargeCompleted));
    ms.put(SEGMENTS.get(3), between(chargeCompleted, recordScheduled));
    ms.put(SEGMENTS.get(4), between(recordScheduled, recordStarted));
    ms.put(SEGMENTS.get(5), between(recordStarted, recordCompleted));
    ms.put(SEGMENTS.get(6), between(recordCompleted, last));
    ms.put(SEGMENTS.get(7), between(timerFired, last));
    return ms;
  }

  private static HistoryEvent lastBefore(
      List<HistoryEvent> events, HistoryEvent before, EventType type) {
    HistoryEvent found = null;
    for (HistoryEvent e : events) {
      if (e.getEventId() >= before.getEventId()) {
        break;
      }
      if (e.getEventType() == type) {
        found = e;
      }
    }
    return found;
  }

  private static HistoryEvent activityEvent(
      List<HistoryEvent> events, HistoryEvent scheduled, EventType type) {
    long id = scheduled.getEventId();
    for (HistoryEvent e : events) {
      if (e.getEventType() != type) {
        continue;
      }
      long scheduledId =
          type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
              ? e.getActivityTaskStartedEventAttributes().getScheduledEventId()
              : e.getActivityTaskCompletedEventAttributes().getScheduledEventId();
      if (scheduledId == id) {
        return e;
      }
    }
    return null;
  }

  private static double between(HistoryEvent from, HistoryEvent to) {
    long nanos =
        (to.getEventTime().getSeconds() - from.getEventTime().getSeconds()) * 1_000_000_000L
            + (to.getEventTime().getNanos() - from.getEventTime().getNanos());
    return nanos / 1e6;
  }
}
