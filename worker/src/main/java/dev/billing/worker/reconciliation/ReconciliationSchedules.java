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
import java.util.List;
import java.util.Map;

/**
 * The daily reconciliation and the missed-webhook poll as Temporal Schedules: listed, paused,
 * triggered and backfilled from the Temporal UI or {@code temporal schedule ...}. Every worker
 * start makes each schedule match worker.yml (created if missing, else updated) but keeps its
 * state: a schedule an operator paused stays paused.
 */
public final class ReconciliationSchedules {
  private ReconciliationSchedules() {}

  /**
   * At most one run of the schedule at a time (a slow run makes its next one skip, not pile up;
   * another schedule's runs do not count); a run missed while the server was down is caught up
   * within the job's window; the run's workflow id is the schedule's id plus the scheduled time,
   * which Temporal appends.
   */
  static Schedule schedule(ReconciliationJob job, String taskQueue, ScheduleState state) {
    return Schedule.newBuilder()
        .setSpec(ScheduleSpec.newBuilder().setCronExpressions(List.of(job.cron())).build())
        .setAction(
            ScheduleActionStartWorkflow.newBuilder()
                .setWorkflowType(ReconciliationWorkflow.class)
                .setArguments(job.input("schedule"))
                .setOptions(
                    WorkflowOptions.newBuilder()
                        .setWorkflowId(job.id())
                        .setTaskQueue(taskQueue)
                        .build())
                .build())
        .setPolicy(
            SchedulePolicy.newBuilder()
                .setOverlap(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP)
                .setCatchupWindow(job.catchupWindow())
                .build())
        .setState(state)
        .build();
  }

  /**
   * @return "created" or "updated"
   */
  static String ensure(ScheduleClient schedules, ReconciliationJob job, String taskQueue) {
    Schedule desired =
        schedule(job, taskQueue, ScheduleState.newBuilder().setNote(job.note()).build());
    try {
      schedules.createSchedule(
          job.id(),
          desired,
          ScheduleOptions.newBuilder().setMemo(Map.of("purpose", job.note())).build());
      return "created";
    } catch (ScheduleAlreadyRunningException exists) {
      schedules
          .getHandle(job.id())
          .update(
              input ->
                  new ScheduleUpdate(
                      schedule(job, taskQueue, input.getDescription().getSchedule().getState())));
      return "updated";
    }
  }
}
