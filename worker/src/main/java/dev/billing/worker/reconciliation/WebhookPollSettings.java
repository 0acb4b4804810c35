package dev.billing.worker.reconciliation;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import java.time.Duration;
import java.util.List;

/**
 * worker.yml {@code reconciliation.webhookPoll}: the missed-webhook poll, the webhook check alone
 * on a schedule of its own, so that a payment event whose webhook never came reaches its
 * subscription within hours instead of at the next nightly run.
 *
 * @param enabled false: no poll schedule or cron workflow is created; the nightly run still replays
 *     missed webhooks
 * @param cron standard five-field cron, UTC; by default every four hours at a quarter past (00:15,
 *     04:15, ... 20:15), off the hour and away from the nightly run at 03:00
 * @param lookbackDays days before today each poll reads again (1 to 30). The default 1 reads
 *     yesterday and today so far (UTC), 24 to 48 hours of events: a webhook the gateway delivers
 *     late is looked for by several polls before anything is replayed for good
 * @param scheduleId the poll's Temporal Schedule id, and its cron workflow's id on servers without
 *     Schedules; never the nightly run's
 */
public record WebhookPollSettings(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("cron") String cron,
    @JsonProperty("lookbackDays") Integer lookbackDays,
    @JsonProperty("scheduleId") String scheduleId) {

  public static final String DEFAULT_CRON = "15 */4 * * *";
  public static final int DEFAULT_LOOKBACK_DAYS = 1;
  public static final String DEFAULT_SCHEDULE_ID = "billing-webhook-poll";
  public static final List<Check> CHECKS = List.of(Check.WEBHOOKS);

  /**
   * A poll missed while the server was down starts when it is back within this; an older one is
   * left to the next poll, which reads the same events again.
   */
  static final Duration CATCHUP_WINDOW = Duration.ofHours(4);

  static final String NOTE =
      "Missed-webhook poll: replays gateway events that never arrived as webhooks"
          + " (docs/operations.md). Pausing it leaves them to the nightly reconciliation;"
          + " POST /v1/ops/reconciliations {\"checks\":[\"WEBHOOKS\"]} runs one now.";

  public WebhookPollSettings {
    enabled = enabled == null || enabled;
    cron =
        ReconciliationJob.requireFiveFields(
            "reconciliation.webhookPoll.cron",
            cron == null || cron.isBlank() ? DEFAULT_CRON : cron.trim());
    lookbackDays = lookbackDays == null ? DEFAULT_LOOKBACK_DAYS : lookbackDays;
    scheduleId =
        scheduleId == null || scheduleId.isBlank() ? DEFAULT_SCHEDULE_ID : scheduleId.trim();
    new ReconciliationInput(lookbackDays, true, "check", CHECKS); // validates the range
  }

  public static WebhookPollSettings defaults() {
    return new WebhookPollSettings(null, null, null, null);
  }

  /** Not scheduled: where the webhooks are relayed anyway, or a test clock makes polls costly. */
  public static WebhookPollSettings off() {
    return new WebhookPollSettings(false, null, null, null);
  }

  ReconciliationJob job() {
    return new ReconciliationJob(
        "missed-webhook poll", scheduleId, cron, lookbackDays, CHECKS, CATCHUP_WINDOW, NOTE);
  }
}
