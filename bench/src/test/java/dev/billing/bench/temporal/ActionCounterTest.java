package dev.billing.bench.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.common.v1.ActivityType;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.SearchAttributes;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.ActivityTaskScheduledEventAttributes;
import io.temporal.api.history.v1.ActivityTaskStartedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.MarkerRecordedEventAttributes;
import io.temporal.api.history.v1.UpsertWorkflowSearchAttributesEventAttributes;
import io.temporal.api.history.v1.WorkflowExecutionStartedEventAttributes;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActionCounterTest {

  private final List<HistoryEvent> events = new ArrayList<>();

  private HistoryEvent.Builder event(EventType type) {
    return HistoryEvent.newBuilder().setEventId(events.size() + 1).setEventType(type);
  }

  private void add(HistoryEvent.Builder event) {
    events.add(event.build());
  }

  private void workflowTask() {
    add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(event(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
  }

  private void activity(String type, int attempt) {
    add(
        event(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
            .setActivityTaskScheduledEventAttributes(
                ActivityTaskScheduledEventAttributes.newBuilder()
                    .setActivityType(ActivityType.newBuilder().setName(type))));
    add(
        event(EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
            .setActivityTaskStartedEventAttributes(
                ActivityTaskStartedEventAttributes.newBuilder().setAttempt(attempt)));
    add(event(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED));
    workflowTask();
  }

  private void marker(String name, long workflowTask) {
    add(
        event(EventType.EVENT_TYPE_MARKER_RECORDED)
            .setMarkerRecordedEventAttributes(
                MarkerRecordedEventAttributes.newBuilder()
                    .setMarkerName(name)
                    .setWorkflowTaskCompletedEventId(workflowTask)));
  }

  private void upsert(String... names) {
    SearchAttributes.Builder attributes = SearchAttributes.newBuilder();
    for (String name : names) {
      attributes.putIndexedFields(name, Payload.getDefaultInstance());
    }
    add(
        event(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
            .setUpsertWorkflowSearchAttributesEventAttributes(
                UpsertWorkflowSearchAttributesEventAttributes.newBuilder()
                    .setSearchAttributes(attributes)));
  }

  @Test
  void aHappyCycleRunIsTwoTimersThreeActivitiesAndTheNextRunsStart() {
    add(
        event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)
            .setWorkflowExecutionStartedEventAttributes(
                WorkflowExecutionStartedEventAttributes.newBuilder()
                    .setContinuedExecutionRunId("run-1")));
    workflowTask();
    add(event(EventType.EVENT_TYPE_TIMER_STARTED));
    add(event(EventType.EVENT_TYPE_TIMER_FIRED));
    workflowTask();
    activity("SendPaymentReminder", 1);
    add(event(EventType.EVENT_TYPE_TIMER_STARTED));
    add(event(EventType.EVENT_TYPE_TIMER_FIRED));
    workflowTask();
    activity("ChargePaymentMethod", 1);
    activity("RecordChange", 1);
    add(event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW));

    ActionCount count = ActionCounter.count(events);

    assertThat(count.byKind())
        .isEqualTo(
            Map.of(
                "timer started",
                2,
                "activity started",
                3,
                "continue-as-new (next run started)",
                1));
    assertThat(count.total()).isEqualTo(6);
    assertThat(count.versionMarkers()).isZero();
    assertThat(count.events()).isEqualTo(events.size()).isEqualTo(33);
  }

  @Test
  void retriesLocalActivitiesPerTaskUpdatesAndUpsertsCountAsTemporalCloudBillsThem() {
    add(
        event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED)
            .setWorkflowExecutionStartedEventAttributes(
                WorkflowExecutionStartedEventAttributes.getDefaultInstance()));
    add(event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED));
    workflowTask();
    marker("LocalActivity", 4);
    marker("LocalActivity", 4);
    marker("LocalActivity", 9);
    marker("Version", 4);
    marker("SideEffect", 4);
    upsert("TemporalChangeVersion");
    upsert("BillingStatus", "TemporalChangeVersion");
    add(event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED));
    activity("ChargePaymentMethod", 3);
    add(event(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED));

    ActionCount count = ActionCounter.count(events);

    assertThat(count.byKind())
        .isEqualTo(
            Map.of(
                "workflow started (client)", 1,
                "update received", 1,
                "local activities (per workflow task)", 2,
                "side effect recorded", 1,
                "search attributes upserted", 1,
                "signal received", 1,
                "activity started", 1,
                "activity retried", 2));
    assertThat(count.total()).isEqualTo(10);
    assertThat(count.versionMarkers()).isEqualTo(1);
  }

  @Test
  void aRecordedCycleRunOfTheWorkflowCountsSixActions() throws Exception {
    // A real history (the workflows module's replay fixture): a monthly cycle with a due window,
    // from its start by continue-as-new to the next continue-as-new.
    String json =
        Files.readString(
            Path.of("../workflows/src/test/resources/histories/1.0.0/spread-cycle-paid.json"));
    ActionCount count = ActionCounter.count(WorkflowExecutionHistory.fromJson(json).getEvents());

    assertThat(count.total()).isEqualTo(6);
    assertThat(count.byKind())
        .containsOnlyKeys(
            "timer started", "activity started", "continue-as-new (next run started)");
    assertThat(count.versionMarkers()).isZero();
    assertThat(count.events()).isEqualTo(33);
  }
}
