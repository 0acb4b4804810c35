package dev.billing.worker.reconciliation;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * worker.yml {@code reconciliation}: when the daily run happens and what it covers, and the
 * missed-webhook poll beside it.
 *
 * @param enabled false: no schedule or cron workflow is created for the daily run (runs can still
 *     be started by the API); the poll has its own flag
 * @param cron standard five-field cron, UTC ("0 3 * * *": 03:00 every day, after the day's charges)
 * @param lookbackDays days before today checked again by each run (1 to 30)
 * @param scheduleId the Temporal Schedule's id, and the cron workflow's id on servers without
 *     Schedules
 * @param webhookPoll the webhook check alone, several times a day, on a schedule of its own
 */
public record ReconciliationSettings(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("cron") String cron,
    @JsonProperty("lookbackDays") Integer lookbackDays,
    @JsonProperty("scheduleId") String scheduleId,
    @JsonProperty("webhookPoll") WebhookPollSettings webhookPoll) {

  public static final String DEFAULT_CRON = "0 3 * * *";
  public static final String DEFAULT_SCHEDULE_ID = "billing-reconciliation";

  /** A daily run missed while the server was down is caught up within a day. */
  static final Duration CATCHUP_WINDOW = Duration.ofDays(1);

  static final String NOTE =
      "Daily billing reconciliation: drift, payments, missed webhooks"
          + " (docs/operations.md). Pausing it stops the daily runs; POST /v1/ops/reconciliations still works.";

  public ReconciliationSettings {
    enabled = enabled == null || enabled;
    cron =
        ReconciliationJob.requireFiveFields(
            "reconciliation.cron", cron == null || cron.isBlank() ? DEFAULT_CRON : cron.trim());
    lookbackDays = lookbackDays == null ? ReconciliationInput.DEFAULT_LOOKBACK_DAYS : lookbackDays;
    scheduleId =
        scheduleId == null || scheduleId.isBlank() ? DEFAULT_SCHEDULE_ID : scheduleId.trim();
    webhookPoll = webhookPoll == null ? WebhookPollSettings.defaults() : webhookPoll;
    new ReconciliationInput(lookbackDays, true, "check"); // validates the range
    if (webhookPoll.scheduleId().equals(scheduleId)) {
      // One id would make each worker start overwrite one schedule with the other.
      throw new IllegalArgumentException(
          "reconciliation.webhookPoll.scheduleId must differ from reconciliation.scheduleId ("
              + scheduleId
              + ")");
    }
  }

  /** The daily run as configured, with the default webhook poll. */
  public ReconciliationSettings(
      Boolean enabled, String cron, Integer lookbackDays, String scheduleId) {
    this(enabled, cron, lookbackDays, scheduleId, null);
  }

  public static ReconciliationSettings defaults() {
    return new ReconciliationSettings(null, null, null, null, null);
  }

  /** The same settings with another poll. */
  public ReconciliationSettings withWebhookPoll(WebhookPollSettings poll) {
    return new ReconciliationSettings(enabled, cron, lookbackDays, scheduleId, poll);
  }

  /** What the worker keeps scheduled: the daily run and the poll, each when enabled. */
  List<ReconciliationJob> jobs() {
    List<ReconciliationJob> jobs = new ArrayList<>();
    if (enabled) {
      jobs.add(
          new ReconciliationJob(
              "daily reconciliation",
              scheduleId,
              cron,
              lookbackDays,
              ReconciliationInput.ALL_CHECKS,
              CATCHUP_WINDOW,
              NOTE));
    }
    if (webhookPoll.enabled()) {
      jobs.add(webhookPoll.job());
    }
    return jobs;
  }
}
