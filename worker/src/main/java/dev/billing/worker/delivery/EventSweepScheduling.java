package dev.billing.worker.delivery;

import dev.billing.worker.reconciliation.SchedulesCapability;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.delivery.EventSweepWorkflow;
import io.dropwizard.lifecycle.Managed;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleSpec;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.client.schedules.ScheduleUpdate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the Temporal Schedule {@code billing-event-sweep} exists and matches worker.yml once
 * the worker polls (created if missing, else updated, keeping a pause an operator set). A server
 * without Schedules (the Java test server) gets no sweep: the record activities' signals deliver
 * alone there, and the log says so.
 */
public final class EventSweepScheduling implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(EventSweepScheduling.class);

  static final String NOTE =
      "Event sweep: signals the delivery workflow of every subscription with merchant events still"
          + " owed (a lost signal, a reset). Pausing it leaves those events undelivered until their"
          + " subscription changes again (docs/operations.md).";

  /** A sweep missed while the server was down is caught up within this; the next one reads all. */
  static final Duration CATCHUP_WINDOW = Duration.ofMinutes(10);

  private final WorkflowClient client;
  private final String taskQueue;
  private final DeliverySettings settings;
  private volatile String outcome;

  public EventSweepScheduling(WorkflowClient client, String taskQueue, DeliverySettings settings) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.settings = settings;
  }

  /** "created", "updated", "unsupported" or "disabled" after start; null before. */
  public String outcome() {
    return outcome;
  }

  @Override
  public void start() {
    if (!settings.enabled() || !settings.sweepEnabled()) {
      outcome = "disabled";
      LOG.info("Event sweep not scheduled (delivery.sweepEnabled=false)");
      return;
    }
    String namespace = client.getOptions().getNamespace();
    if (!SchedulesCapability.of(client.getWorkflowServiceStubs(), namespace).supported()) {
      outcome = "unsupported";
      LOG.info(
          "Event sweep: this Temporal server has no Schedules; merchant events are delivered on"
              + " their record's signal only");
      return;
    }
    ScheduleClient schedules =
        ScheduleClient.newInstance(
            client.getWorkflowServiceStubs(),
            ScheduleClientOptions.newBuilder().setNamespace(namespace).build());
    outcome = ensure(schedules);
    LOG.info(
        "Event sweep: Temporal Schedule {} {} (cron \"{}\" UTC, lookback {} days)",
        settings.sweepScheduleId(),
        outcome,
        settings.sweepCron(),
        settings.sweepLookbackDays());
  }

  String ensure(ScheduleClient schedules) {
    String id = settings.sweepScheduleId();
    try {
      schedules.createSchedule(
          id,
          schedule(ScheduleState.newBuilder().setNote(NOTE).build()),
          io.temporal.client.schedules.ScheduleOptions.newBuilder()
              .setMemo(Map.of("purpose", NOTE))
              .build());
      return "created";
    } catch (ScheduleAlreadyRunningException exists) {
      schedules
          .getHandle(id)
          .update(
              input ->
                  new ScheduleUpdate(schedule(input.getDescription().getSchedule().getState())));
      return "updated";
    }
  }

  /** One sweep at a time (a slow one makes the next skip); on the deliveries queue. */
  Schedule schedule(ScheduleState state) {
    return Schedule.newBuilder()
        .setSpec(
            ScheduleSpec.newBuilder().setCronExpressions(List.of(settings.sweepCron())).build())
        .setAction(
            ScheduleActionStartWorkflow.newBuilder()
                .setWorkflowType(EventSweepWorkflow.class)
                .setArguments(settings.request())
                .setOptions(
                    WorkflowOptions.newBuilder()
                        .setWorkflowId(settings.sweepScheduleId())
                        .setTaskQueue(TaskQueues.deliveries(taskQueue))
                        .build())
                .build())
        .setPolicy(
            SchedulePolicy.newBuilder()
                .setOverlap(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP)
                .setCatchupWindow(CATCHUP_WINDOW)
                .build())
        .setState(state)
        .build();
  }
}
