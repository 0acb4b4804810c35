package dev.billing.worker.delivery;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.workflows.delivery.EventSweepRequest;

/**
 * worker.yml {@code delivery}: merchant events to webhook endpoints (ADR 0012).
 *
 * @param enabled false: no delivery at all from this worker (events stay owed in the outbox)
 * @param sweepEnabled false: no {@code billing-event-sweep} schedule; a lost signal then waits for
 *     the next change of its subscription or a redelivery
 * @param sweepCron five-field cron, UTC; every five minutes by default
 * @param sweepLookbackDays UTC days before today the sweep reads (1 to 30): the retry window (three
 *     days) and a day of margin by default
 * @param sweepScheduleId the Temporal Schedule's id, and the sweep workflows' id prefix
 */
public record DeliverySettings(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("sweepEnabled") Boolean sweepEnabled,
    @JsonProperty("sweepCron") String sweepCron,
    @JsonProperty("sweepLookbackDays") Integer sweepLookbackDays,
    @JsonProperty("sweepScheduleId") String sweepScheduleId) {

  public static final String DEFAULT_CRON = "*/5 * * * *";
  public static final String DEFAULT_SCHEDULE_ID = "billing-event-sweep";

  public DeliverySettings {
    enabled = enabled == null || enabled;
    sweepEnabled = sweepEnabled == null || sweepEnabled;
    sweepCron = sweepCron == null || sweepCron.isBlank() ? DEFAULT_CRON : sweepCron.trim();
    if (sweepCron.split("\\s+").length != 5) {
      throw new IllegalArgumentException(
          "delivery.sweepCron must have five fields (minute hour day month weekday), got \""
              + sweepCron
              + "\"");
    }
    sweepLookbackDays =
        sweepLookbackDays == null ? EventSweepRequest.DEFAULT_LOOKBACK_DAYS : sweepLookbackDays;
    sweepScheduleId =
        sweepScheduleId == null || sweepScheduleId.isBlank()
            ? DEFAULT_SCHEDULE_ID
            : sweepScheduleId.trim();
    request(sweepLookbackDays); // validates the range
  }

  public static DeliverySettings defaults() {
    return new DeliverySettings(null, null, null, null, null);
  }

  /** Delivery without the sweep: where a test clock makes a five-minute schedule costly. */
  public static DeliverySettings withoutSweep() {
    return new DeliverySettings(true, false, null, null, null);
  }

  EventSweepRequest request() {
    return request(sweepLookbackDays);
  }

  private static EventSweepRequest request(int lookbackDays) {
    return new EventSweepRequest(lookbackDays, EventSweepRequest.DEFAULT_LIMIT);
  }
}
