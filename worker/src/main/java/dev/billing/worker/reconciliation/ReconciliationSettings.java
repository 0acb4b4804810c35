package dev.billing.worker.reconciliation;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.workflows.reconciliation.ReconciliationInput;

/**
 * worker.yml {@code reconciliation}: when the daily run happens and what it covers.
 *
 * @param enabled false: no schedule or cron workflow is created (runs can still be started by the
 *     API)
 * @param cron standard five-field cron, UTC ("0 3 * * *": 03:00 every day, after the day's charges)
 * @param lookbackDays days before today checked again by each run (1 to 30)
 * @param scheduleId the Temporal Schedule's id, and the cron workflow's id on servers without
 *     Schedules
 */
public record ReconciliationSettings(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("cron") String cron,
    @JsonProperty("lookbackDays") Integer lookbackDays,
    @JsonProperty("scheduleId") String scheduleId) {

  public static final String DEFAULT_CRON = "0 3 * * *";
  public static final String DEFAULT_SCHEDULE_ID = "billing-reconciliation";

  public ReconciliationSettings {
    enabled = enabled == null || enabled;
    cron = cron == null || cron.isBlank() ? DEFAULT_CRON : cron.trim();
    lookbackDays = lookbackDays == null ? ReconciliationInput.DEFAULT_LOOKBACK_DAYS : lookbackDays;
    scheduleId =
        scheduleId == null || scheduleId.isBlank() ? DEFAULT_SCHEDULE_ID : scheduleId.trim();
    if (cron.split("\\s+").length != 5) {
      // Temporal's cron workflows take five fields only (no seconds, no "@every").
      throw new IllegalArgumentException(
          "reconciliation.cron must have five fields (minute hour day month weekday): " + cron);
    }
    new ReconciliationInput(lookbackDays, true, "check"); // validates the range
  }

  public static ReconciliationSettings defaults() {
    return new ReconciliationSettings(null, null, null, null);
  }

  /** What each scheduled run is started with. */
  public ReconciliationInput input(String trigger) {
    return new ReconciliationInput(lookbackDays, true, trigger);
  }
}
