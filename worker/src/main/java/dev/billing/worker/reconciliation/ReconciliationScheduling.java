package dev.billing.worker.reconciliation;

import io.dropwizard.lifecycle.Managed;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the daily reconciliation is scheduled, once the worker polls: as a Temporal Schedule
 * when the server implements Schedules, otherwise as a cron workflow. The choice is logged.
 */
public final class ReconciliationScheduling implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(ReconciliationScheduling.class);

  public enum Mode {
    SCHEDULE,
    CRON,
    DISABLED
  }

  private final WorkflowClient client;
  private final String taskQueue;
  private final ReconciliationSettings settings;
  private final SchedulesCapability capability;
  private final Supplier<ScheduleClient> schedules;
  private volatile Mode mode;

  ReconciliationScheduling(
      WorkflowClient client,
      String taskQueue,
      ReconciliationSettings settings,
      SchedulesCapability capability,
      Supplier<ScheduleClient> schedules) {
    this.client = client;
    this.taskQueue = taskQueue;
    this.settings = settings;
    this.capability = capability;
    this.schedules = schedules;
  }

  /** On the client's own server: its capability, its schedule client. */
  public static ReconciliationScheduling of(
      WorkflowClient client, String taskQueue, ReconciliationSettings settings) {
    String namespace = client.getOptions().getNamespace();
    return new ReconciliationScheduling(
        client,
        taskQueue,
        settings,
        SchedulesCapability.of(client.getWorkflowServiceStubs(), namespace),
        () ->
            ScheduleClient.newInstance(
                client.getWorkflowServiceStubs(),
                ScheduleClientOptions.newBuilder().setNamespace(namespace).build()));
  }

  @Override
  public void start() {
    mode = ensure();
  }

  /** The path taken at start; null before. */
  public Mode mode() {
    return mode;
  }

  Mode ensure() {
    if (!settings.enabled()) {
      LOG.info(
          "Reconciliation scheduling disabled (reconciliation.enabled=false); runs start only"
              + " through POST /v1/ops/reconciliations");
      return Mode.DISABLED;
    }
    if (capability.supported()) {
      String done = ReconciliationSchedules.ensure(schedules.get(), settings, taskQueue);
      LOG.info(
          "Reconciliation: Temporal Schedule {} {} (cron \"{}\" UTC, lookback {} days); pause or"
              + " trigger it in the Temporal UI",
          settings.scheduleId(),
          done,
          settings.cron(),
          settings.lookbackDays());
      return Mode.SCHEDULE;
    }
    String done = ReconciliationCron.ensure(client, settings, taskQueue);
    LOG.info(
        "Reconciliation: this Temporal server has no Schedules (the Java test server); cron"
            + " workflow {} {} instead (cron \"{}\" UTC, lookback {} days)",
        settings.scheduleId(),
        done,
        settings.cron(),
        settings.lookbackDays());
    return Mode.CRON;
  }
}
