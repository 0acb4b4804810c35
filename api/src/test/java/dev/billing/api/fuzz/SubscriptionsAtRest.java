package dev.billing.api.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.domain.BillingIds;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Waits until the subscriptions an accepted request touched have finished what it set off (a
 * reminder sent right after a create, a charge after pay-now): their workflows wait on a timer or
 * an update, or have ended. A quiet period alone would blame a write a slow worker makes later on
 * the next request.
 */
final class SubscriptionsAtRest {
  private static final Pattern IN_PATH = Pattern.compile("/subscriptions/([^/?]+)");
  private static final Set<EventType> BUSY =
      Set.of(
          EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
  private static final Duration AT_MOST = Duration.ofSeconds(30);

  private SubscriptionsAtRest() {}

  static void await(WorkflowClient client, HttpResponse<String> response, ObjectMapper json)
      throws Exception {
    for (String id : touched(response, json)) {
      String workflowId = BillingIds.workflowId(id);
      long deadline = System.nanoTime() + AT_MOST.toNanos();
      while (!atRest(client, workflowId)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              workflowId + " still busy " + AT_MOST + " after " + response.request());
        }
        Thread.sleep(20);
      }
    }
  }

  private static Set<String> touched(HttpResponse<String> response, ObjectMapper json) {
    Set<String> ids = new LinkedHashSet<>();
    Matcher path = IN_PATH.matcher(response.request().uri().getPath());
    if (path.find()) {
      ids.add(path.group(1));
    }
    if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
      try {
        JsonNode body = json.readTree(response.body());
        if (body != null && body.path("subscriptionId").isTextual()) {
          ids.add(body.get("subscriptionId").asText());
        }
      } catch (java.io.IOException notJson) {
        // an empty or non-JSON answer names nothing more
      }
    }
    return ids;
  }

  private static boolean atRest(WorkflowClient client, String workflowId) {
    WorkflowExecutionDescription run;
    try {
      run = client.newUntypedWorkflowStub(workflowId).describe();
    } catch (io.temporal.client.WorkflowNotFoundException never) {
      return true; // a path id the API refused before any workflow existed
    }
    if (run.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return true;
    }
    if (run.getRawDescription().getPendingActivitiesCount() > 0) {
      return false;
    }
    List<HistoryEvent> events = client.fetchHistory(workflowId).getEvents();
    return !BUSY.contains(events.get(events.size() - 1).getEventType());
  }
}
