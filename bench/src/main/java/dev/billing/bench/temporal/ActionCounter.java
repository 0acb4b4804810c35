package dev.billing.bench.temporal;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts Temporal Cloud actions in one run's history, by Temporal Cloud's definition
 * (docs.temporal.io/cloud/actions): a workflow started by a client, or by continue-as-new (counted
 * in the run that continues, so a billing cycle's run carries the start of the next one); every
 * timer started; every activity started or retried; local activities once per workflow task; a side
 * effect recorded; a search-attribute upsert unless it only carries TemporalChangeVersion; every
 * signal and update received; a child workflow twice (start and execution). Queries, rejected
 * updates and heartbeats leave no trace in a history and are not counted here.
 */
public final class ActionCounter {
  static final String LOCAL_ACTIVITY_MARKER = "LocalActivity";
  static final String SIDE_EFFECT_MARKER = "SideEffect";
  static final String MUTABLE_SIDE_EFFECT_MARKER = "MutableSideEffect";
  static final String VERSION_MARKER = "Version";
  static final String CHANGE_VERSION_ATTRIBUTE = "TemporalChangeVersion";

  private ActionCounter() {}

  public static ActionCount count(List<HistoryEvent> events) {
    Map<String, Integer> byKind = new TreeMap<>();
    Set<Long> tasksWithLocalActivities = new HashSet<>();
    int versionMarkers = 0;
    for (HistoryEvent event : events) {
      EventType type = event.getEventType();
      switch (type) {
        case EVENT_TYPE_WORKFLOW_EXECUTION_STARTED -> {
          if (event
              .getWorkflowExecutionStartedEventAttributes()
              .getContinuedExecutionRunId()
              .isEmpty()) {
            add(byKind, "workflow started (client)", 1);
          }
        }
        case EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW ->
            add(byKind, "continue-as-new (next run started)", 1);
        case EVENT_TYPE_TIMER_STARTED -> add(byKind, "timer started", 1);
        case EVENT_TYPE_ACTIVITY_TASK_SCHEDULED -> add(byKind, "activity started", 1);
        case EVENT_TYPE_ACTIVITY_TASK_STARTED -> {
          // The started event of an activity carries its last attempt; each earlier one was a
          // retry.
          int retries = event.getActivityTaskStartedEventAttributes().getAttempt() - 1;
          if (retries > 0) {
            add(byKind, "activity retried", retries);
          }
        }
        case EVENT_TYPE_MARKER_RECORDED -> {
          var marker = event.getMarkerRecordedEventAttributes();
          switch (marker.getMarkerName()) {
            case LOCAL_ACTIVITY_MARKER -> {
              if (tasksWithLocalActivities.add(marker.getWorkflowTaskCompletedEventId())) {
                add(byKind, "local activities (per workflow task)", 1);
              }
            }
            case SIDE_EFFECT_MARKER, MUTABLE_SIDE_EFFECT_MARKER ->
                add(byKind, "side effect recorded", 1);
            case VERSION_MARKER -> versionMarkers++;
            default -> add(byKind, "marker " + marker.getMarkerName(), 1);
          }
        }
        case EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES -> {
          Set<String> keys =
              event
                  .getUpsertWorkflowSearchAttributesEventAttributes()
                  .getSearchAttributes()
                  .getIndexedFieldsMap()
                  .keySet();
          if (!(keys.size() == 1 && keys.contains(CHANGE_VERSION_ATTRIBUTE))) {
            add(byKind, "search attributes upserted", 1);
          }
        }
        case EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED -> add(byKind, "signal received", 1);
        case EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED -> add(byKind, "update received", 1);
        case EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED ->
            add(byKind, "signal sent", 1);
        case EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED ->
            add(byKind, "child workflow", 2);
        case EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED ->
            add(byKind, "workflow options updated", 1);
        default -> {
          // workflow tasks, completions, firings: not actions
        }
      }
    }
    int total = byKind.values().stream().mapToInt(Integer::intValue).sum();
    return new ActionCount(byKind, total, versionMarkers, events.size());
  }

  private static void add(Map<String, Integer> byKind, String kind, int n) {
    byKind.merge(kind, n, Integer::sum);
  }
}
