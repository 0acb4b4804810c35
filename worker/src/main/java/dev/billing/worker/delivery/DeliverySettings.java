package dev.billing.worker.delivery;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.billing.activities.delivery.EndpointDisabling;
import dev.billing.workflows.delivery.EventSweepRequest;
import java.time.Duration;
import java.time.format.DateTimeParseException;

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
 * @param endpointDisableAfter ISO-8601 duration: an endpoint whose every delivery failed this long,
 *     with no success in between, is disabled (P5D by default; at least PT1H)
 */
public record DeliverySettings(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("sweepEnabled") Boolean sweepEnabled,
    @JsonProperty("sweepCron") String sweepCron,
    @JsonProperty("sweepLookbackDays") Integer sweepLookbackDays,
    @JsonProperty("sweepScheduleId") String sweepScheduleId,
    @JsonProperty("endpointDisableAfter") String endpointDisableAfter) {

  /** Shorter would disable an endpoint inside one event's first hour of retries. */
  static final Duration MIN_DISABLE_AFTER = Duration.ofHours(1);

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
    endpointDisableAfter =
        endpointDisableAfter == null || endpointDisableAfter.isBlank()
            ? EndpointDisabling.DEFAULT_AFTER.toString()
            : endpointDisableAfter.trim();
    disableAfter(endpointDisableAfter); // validates it
  }

  public DeliverySettings(
      Boolean enabled,
      Boolean sweepEnabled,
      String sweepCron,
      Integer sweepLookbackDays,
      String sweepScheduleId) {
    this(enabled, sweepEnabled, sweepCron, sweepLookbackDays, sweepScheduleId, null);
  }

  public static DeliverySettings defaults() {
    return new DeliverySettings(null, null, null, null, null, null);
  }

  /** Delivery without the sweep: where a test clock makes a five-minute schedule costly. */
  public static DeliverySettings withoutSweep() {
    return new DeliverySettings(true, false, null, null, null, null);
  }

  /** The rule that disables endpoints after {@code endpointDisableAfter}. */
  public EndpointDisabling disabling() {
    return new EndpointDisabling(disableAfter(endpointDisableAfter));
  }

  private static Duration disableAfter(String value) {
    Duration after;
    try {
      after = Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "delivery.endpointDisableAfter must be an ISO-8601 duration such as P5D, got \""
              + value
              + "\"");
    }
    if (after.compareTo(MIN_DISABLE_AFTER) < 0) {
      throw new IllegalArgumentException(
          "delivery.endpointDisableAfter must be at least " + MIN_DISABLE_AFTER + ", got " + value);
    }
    return after;
  }

  EventSweepRequest request() {
    return request(sweepLookbackDays);
  }

  private static EventSweepRequest request(int lookbackDays) {
    return new EventSweepRequest(lookbackDays, EventSweepRequest.DEFAULT_LIMIT);
  }
}
