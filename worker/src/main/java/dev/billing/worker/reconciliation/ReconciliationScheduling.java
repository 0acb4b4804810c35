package dev.billing.worker.reconciliation;

import io.dropwizard.lifecycle.Managed;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes sure the daily reconciliation and the missed-webhook poll are scheduled, each unless
 * disabled, once the worker polls: as Temporal Schedules when the server implements Schedules,
 * otherwise as cron workflows. The choice is logged.
 */
public final class ReconciliationScheduling implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(ReconciliationScheduling.class);

  /** The path taken; DISABLED when neither the daily run nor the poll is enabled. */
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
  private volatile Map<String, String> outcomes = Map.of();

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

  /**
   * What the last start did with each job, by id: "created" or "updated" (a Schedule), "started" or
   * "already running" (a cron workflow). Empty before a start and when nothing is scheduled.
   */
  public Map<String, String> outcomes() {
    return outcomes;
  }

  Mode ensure() {
    if (!settings.enabled()) {
      LOG.info(
          "Daily reconciliation not scheduled (reconciliation.enabled=false); runs start only"
              + " through POST /v1/ops/reconciliations");
    }
    if (!settings.webhookPoll().enabled()) {
      LOG.info(
          "Missed-webhook poll not scheduled (reconciliation.webhookPoll.enabled=false); the daily"
              + " run still replays missed webhooks");
    }
    List<ReconciliationJob> jobs = settings.jobs();
    Map<String, String> done = new LinkedHashMap<>();
    Mode path;
    if (jobs.isEmpty()) {
      path = Mode.DISABLED;
    } else if (capability.supported()) {
      ScheduleClient scheduleClient = schedules.get();
      for (ReconciliationJob job : jobs) {
        done.put(job.id(), ReconciliationSchedules.ensure(scheduleClient, job, taskQueue));
        LOG.info(
            "Reconciliation: Temporal Schedule {} ({}) {} (cron \"{}\" UTC, lookback {} days);"
                + " pause or trigger it in the Temporal UI",
            job.id(),
            job.name(),
            done.get(job.id()),
            job.cron(),
            job.lookbackDays());
      }
      path = Mode.SCHEDULE;
    } else {
      for (ReconciliationJob job : jobs) {
        done.put(job.id(), ReconciliationCron.ensure(client, job, taskQueue));
        LOG.info(
            "Reconciliation: this Temporal server has no Schedules (the Java test server); cron"
                + " workflow {} ({}) {} instead (cron \"{}\" UTC, lookback {} days)",
            job.id(),
            job.name(),
            done.get(job.id()),
            job.cron(),
            job.lookbackDays());
      }
      path = Mode.CRON;
    }
    outcomes = Collections.unmodifiableMap(done);
    return path;
  }
}
