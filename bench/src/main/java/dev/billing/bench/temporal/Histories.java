package dev.billing.bench.temporal;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every run of one workflow id, oldest first, by following continue-as-new back from the latest.
 */
public final class Histories {
  private Histories() {}

  public static List<List<HistoryEvent>> runs(WorkflowClient client, String workflowId) {
    List<List<HistoryEvent>> runs = new ArrayList<>();
    WorkflowExecutionHistory latest = client.fetchHistory(workflowId);
    List<HistoryEvent> events = latest.getEvents();
    runs.add(events);
    String previous = continuedFrom(events);
    while (!previous.isEmpty()) {
      events = client.fetchHistory(workflowId, previous).getEvents();
      runs.add(events);
      previous = continuedFrom(events);
    }
    Collections.reverse(runs);
    return runs;
  }

  private static String continuedFrom(List<HistoryEvent> events) {
    HistoryEvent first = events.get(0);
    if (first.getEventType() != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
      return "";
    }
    return first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId();
  }

  /** True when the run ended by continuing as new (a completed billing cycle). */
  public static boolean continuedAsNew(List<HistoryEvent> events) {
    return events.get(events.size() - 1).getEventType()
        == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW;
  }
}
