package dev.billing.worker.reconciliation;

import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.client.schedules.ScheduleUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The daily reconciliation as a Temporal Schedule: listed, paused, triggered and backfilled from
 * the Temporal UI or {@code temporal schedule ...}. Every worker start makes the schedule match
 * worker.yml (created if missing, else updated) but keeps its state: a schedule an operator paused
 * stays paused.
 */
public final class ReconciliationSchedules {
  private ReconciliationSchedules() {}

  /**
   * At most one run at a time (a slow run makes the next one skip, not pile up); a run missed while
   * the server was down is caught up within a day; the run's workflow id is the schedule's id plus
   * the scheduled time, which Temporal appends.
   */
  static Schedule schedule(ReconciliationSettings settings, String taskQueue, ScheduleState state) {
    return Schedule.newBuilder()
        .setSpec(ScheduleSpec.newBuilder().setCronExpressions(List.of(settings.cron())).build())
        .setAction(
            ScheduleActionStartWorkflow.newBuilder()
                .setWorkflowType(ReconciliationWorkflow.class)
                .setArguments(settings.input("schedule"))
                .setOptions(
                    WorkflowOptions.newBuilder()
                        .setWorkflowId(settings.scheduleId())
                        .setTaskQueue(taskQueue)
                        .build())
                .build())
        .setPolicy(
            SchedulePolicy.newBuilder()
                .setOverlap(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP)
                .setCatchupWindow(Duration.ofDays(1))
                .build())
        .setState(state)
        .build();
  }

  static final String NOTE =
      "Daily billing reconciliation: drift, payments, missed webhooks"
          + " (docs/operations.md). Pausing it stops the daily runs; POST /v1/ops/reconciliations still works.";

  /**
   * @return "created" or "updated"
   */
  static String ensure(
      ScheduleClient schedules, ReconciliationSettings settings, String taskQueue) {
    Schedule desired =
        schedule(settings, taskQueue, ScheduleState.newBuilder().setNote(NOTE).build());
    try {
      schedules.createSchedule(
          settings.scheduleId(),
          desired,
          ScheduleOptions.newBuilder().setMemo(Map.of("purpose", NOTE)).build());
      return "created";
    } catch (ScheduleAlreadyRunningException exists) {
      schedules
          .getHandle(settings.scheduleId())
          .update(
              input ->
                  new ScheduleUpdate(
                      schedule(
                          settings, taskQueue, input.getDescription().getSchedule().getState())));
      return "updated";
    }
  }
}
