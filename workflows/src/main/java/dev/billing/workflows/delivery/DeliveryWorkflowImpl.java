package dev.billing.workflows.delivery;

import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.DeliveryActivities;
import dev.billing.workflows.activities.DeliveryFailureInput;
import dev.billing.workflows.activities.PlanDeliveriesInput;
import dev.billing.workflows.activities.PlanDeliveriesResult;
import dev.billing.workflows.activities.SettleEventInput;
import dev.billing.workflows.delivery.DeliveryInput.QueuedEvent;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * One loop on the main thread: look up what the signals brought, start the head of every idle lane
 * ({@link DeliveryLanes}), wait for a signal or a delivery's end, book it. Signal handlers only
 * queue. Continues as new once the history is long, after the deliveries in flight end (an activity
 * abandoned by continue-as-new would be sent twice).
 */
public class DeliveryWorkflowImpl implements DeliveryWorkflow {
  private static final Logger log = Workflow.getLogger(DeliveryWorkflowImpl.class);

  /** History events before continue-as-new: a delivery costs about ten. */
  static final int HISTORY_LIMIT = 2_000;

  /** Ids whose delivery ended, remembered to ignore late duplicates without a read. */
  static final int RECENT_LIMIT = 200;

  /** Ids looked up per PlanDeliveries call: a sweep may signal many. */
  static final int PLAN_BATCH = 100;

  private final DeliveryActivities store =
      Workflow.newActivityStub(DeliveryActivities.class, DeliveryActivityOptions.STORE);

  private final Set<String> recorded = new LinkedHashSet<>();
  private final List<String> redeliveries = new ArrayList<>();
  private final Deque<String> recent = new ArrayDeque<>();
  private final Map<String, Promise<DeliverEventResult>> running = new LinkedHashMap<>();
  private final Map<String, DeliveryLanes.Start> starts = new LinkedHashMap<>();
  private DeliveryLanes lanes;
  private String subscriptionId;
  private int delivered;
  private int failed;

  @Override
  public DeliveryResult run(DeliveryInput input) {
    subscriptionId = input.subscriptionId();
    lanes = new DeliveryLanes(input.lanes());
    recent.addAll(input.recent());
    recorded.addAll(input.unplanned());
    boolean draining = false;
    while (true) {
      planRecorded();
      planRedeliveries();
      if (!draining) {
        for (DeliveryLanes.Start start : lanes.startable()) {
          starts.put(start.endpointId(), start);
          running.put(
              start.endpointId(),
              Async.function(
                  http(start.event().createdAt())::deliver,
                  new DeliverEventInput(
                      start.event().eventId(),
                      start.endpointId(),
                      start.lastOwed(),
                      start.event().redelivery())));
        }
      }
      if (running.isEmpty() && recorded.isEmpty() && redeliveries.isEmpty()) {
        if (lanes.isEmpty()) {
          return new DeliveryResult(delivered, failed);
        }
        if (draining) {
          Workflow.continueAsNew(
              new DeliveryInput(
                  subscriptionId, List.of(), lanes.snapshot(), new ArrayList<>(recent)));
        }
      }
      Workflow.await(
          () ->
              !recorded.isEmpty()
                  || !redeliveries.isEmpty()
                  || running.values().stream().anyMatch(Promise::isCompleted));
      for (String endpointId : List.copyOf(running.keySet())) {
        if (running.get(endpointId).isCompleted()) {
          ended(endpointId, running.remove(endpointId));
        }
      }
      if (Workflow.getInfo().getHistoryLength() > HISTORY_LIMIT
          || Workflow.getInfo().isContinueAsNewSuggested()) {
        draining = true;
      }
    }
  }

  /** Each delivery's own window: what is left of its event's three days, an hour at least. */
  private DeliveryActivities http(Instant windowStart) {
    return Workflow.newActivityStub(
        DeliveryActivities.class,
        DeliveryActivityOptions.deliver(
            windowStart, Instant.ofEpochMilli(Workflow.currentTimeMillis())));
  }

  @Override
  public void eventsRecorded(EventsRecorded events) {
    // Checked when planned: a signal may be handled before run() has read its input.
    recorded.addAll(events.eventIds());
  }

  @Override
  public void redeliver(Redelivery redelivery) {
    redeliveries.add(redelivery.eventId());
  }

  private void planRecorded() {
    List<String> ids = new ArrayList<>();
    for (String id : recorded) {
      if (EventOrder.isEventOf(subscriptionId, id) && !lanes.holds(id) && !recent.contains(id)) {
        ids.add(id);
      }
    }
    recorded.clear();
    ids.sort(EventOrder.BY_ID);
    plan(ids, false);
  }

  private void planRedeliveries() {
    List<String> ids =
        redeliveries.stream().filter(id -> EventOrder.isEventOf(subscriptionId, id)).toList();
    redeliveries.clear();
    plan(ids, true);
  }

  private void plan(List<String> ids, boolean redelivery) {
    for (int from = 0; from < ids.size(); from += PLAN_BATCH) {
      List<String> batch = ids.subList(from, Math.min(ids.size(), from + PLAN_BATCH));
      PlanDeliveriesResult planned =
          store.plan(new PlanDeliveriesInput(subscriptionId, batch, redelivery));
      for (PlanDeliveriesResult.PlannedEvent event : planned.events()) {
        if (event.endpointIds().isEmpty()) {
          remember(event.eventId());
        } else {
          Instant windowStart =
              redelivery ? Instant.ofEpochMilli(Workflow.currentTimeMillis()) : event.createdAt();
          lanes.add(
              new QueuedEvent(event.eventId(), event.eventType(), windowStart, redelivery),
              event.endpointIds());
        }
      }
    }
  }

  private void ended(String endpointId, Promise<DeliverEventResult> promise) {
    DeliveryLanes.Start start = starts.remove(endpointId);
    QueuedEvent event = start.event();
    try {
      DeliverEventResult result = promise.get();
      switch (result.outcome()) {
        case DELIVERED -> delivered++;
        case FAILED -> failed++;
        case ENDPOINT_DELETED -> {
          log.info("endpoint {} is gone: its queue is dropped", endpointId);
          for (String id : lanes.dropped(endpointId)) {
            settle(id);
          }
          return;
        }
      }
    } catch (ActivityFailure failure) {
      String reason = reasonOf(failure);
      log.warn("delivery of {} to endpoint {} given up: {}", event.eventId(), endpointId, reason);
      store.recordFailure(
          new DeliveryFailureInput(
              event.eventId(),
              event.eventType(),
              subscriptionId,
              endpointId,
              start.lastOwed(),
              reason,
              Instant.ofEpochMilli(Workflow.currentTimeMillis())));
      failed++;
    }
    String settle = lanes.finished(endpointId);
    if (settle != null) {
      settle(settle);
    }
    if (!event.redelivery() && !lanes.holds(event.eventId())) {
      remember(event.eventId());
    }
  }

  private void settle(String eventId) {
    store.settle(new SettleEventInput(eventId));
    remember(eventId);
  }

  private void remember(String eventId) {
    if (!recent.contains(eventId)) {
      recent.addLast(eventId);
      while (recent.size() > RECENT_LIMIT) {
        recent.removeFirst();
      }
    }
  }

  static String reasonOf(ActivityFailure failure) {
    Throwable cause = failure.getCause();
    // The retry window closing fails the activity with its last failure, marked by the retry state.
    if (failure.getRetryState() == RetryState.RETRY_STATE_TIMEOUT
        || cause instanceof TimeoutFailure) {
      return "retries_exhausted";
    }
    if (cause instanceof ApplicationFailure app) {
      return app.getType();
    }
    return cause == null ? "unknown" : cause.getClass().getSimpleName();
  }
}
