package dev.billing.worker.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.workflows.delivery.EventSweepRequest;
import dev.billing.workflows.delivery.EventSweepWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleState;
import org.junit.jupiter.api.Test;

/** The sweep's Schedule as worker.yml describes it, and the settings it refuses. */
class EventSweepSchedulingTest {

  @Test
  void theSweepRunsEveryFiveMinutesOnTheDeliveriesQueueOneAtATime() {
    EventSweepScheduling scheduling =
        new EventSweepScheduling(null, "billing", DeliverySettings.defaults());
    Schedule schedule = scheduling.schedule(ScheduleState.newBuilder().setPaused(true).build());

    assertThat(schedule.getSpec().getCronExpressions()).containsExactly("*/5 * * * *");
    assertThat(schedule.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
    assertThat(schedule.getState().isPaused()).as("an operator's pause is kept").isTrue();
    ScheduleActionStartWorkflow action = (ScheduleActionStartWorkflow) schedule.getAction();
    assertThat(action.getWorkflowType()).isEqualTo(EventSweepWorkflow.TYPE);
    assertThat(action.getOptions().getTaskQueue()).isEqualTo("billing-deliveries");
    assertThat(action.getOptions().getWorkflowId()).isEqualTo("billing-event-sweep");
    assertThat(action.getArguments().get(0, EventSweepRequest.class))
        .isEqualTo(new EventSweepRequest(4, EventSweepRequest.DEFAULT_LIMIT));
  }

  @Test
  void settingsTheSweepCannotRunAreRefusedAtStartUp() {
    assertThatThrownBy(() -> new DeliverySettings(true, true, "*/5 * * *", null, null))
        .hasMessageContaining("delivery.sweepCron");
    assertThatThrownBy(() -> new DeliverySettings(true, true, null, 0, null))
        .hasMessageContaining("lookbackDays");
    assertThat(DeliverySettings.withoutSweep().sweepEnabled()).isFalse();
    assertThat(DeliverySettings.defaults().enabled()).isTrue();
  }

  @Test
  void nothingIsScheduledWhenTheSweepIsOff() {
    EventSweepScheduling off =
        new EventSweepScheduling(null, "billing", DeliverySettings.withoutSweep());
    off.start();
    assertThat(off.outcome()).isEqualTo("disabled");
  }
}
