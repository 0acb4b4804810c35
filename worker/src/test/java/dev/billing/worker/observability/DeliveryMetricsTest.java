package dev.billing.worker.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.runtime.ProcessMetrics;
import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.DeliverEventResult.Outcome;
import dev.billing.workflows.activities.DeliveryFailureInput;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The webhook delivery series, off the delivery activities' ends as the interceptor sees them. */
class DeliveryMetricsTest {
  private static final DeliverEventInput INPUT =
      new DeliverEventInput("evt_sub-1_2_0", "we_1", true, false);

  @Test
  void eachPostIsCountedByOutcomeAndTheLagOfEachFirstDeliveryIsTimed() {
    ProcessMetrics metrics = new ProcessMetrics("worker");
    BusinessMetrics business = new BusinessMetrics(metrics.registry());
    String before = metrics.scrape();
    assertThat(before)
        .as("every outcome is scraped from the start")
        .contains("billing_webhook_deliveries_total{outcome=\"failed\",process=\"worker\",} 0.0");

    ApplicationFailure refused = ApplicationFailure.newFailure("http_503", "DeliveryFailed");
    business.activityEnded("DeliverEvent", 1, INPUT, null, refused);
    business.activityEnded("DeliverEvent", 2, INPUT, null, refused);
    business.activityEnded(
        "DeliverEvent", 3, INPUT, new DeliverEventResult(Outcome.DELIVERED, 3, 200, 90_000L), null);
    business.activityEnded(
        "DeliverEvent", 1, INPUT, new DeliverEventResult(Outcome.DELIVERED, 1, 200, null), null);
    business.activityEnded(
        "DeliverEvent", 1, INPUT, new DeliverEventResult(Outcome.FAILED, 1, 410), null);
    business.activityEnded(
        "DeliverEvent", 1, INPUT, new DeliverEventResult(Outcome.ENDPOINT_DELETED, 1, null), null);
    DeliveryFailureInput givenUp =
        new DeliveryFailureInput(
            "evt_sub-1_2_0",
            "subscription.canceled",
            "sub-1",
            "we_1",
            true,
            "retries_exhausted",
            Instant.parse("2026-03-04T00:00:00Z"));
    business.activityEnded("RecordDeliveryFailure", 1, givenUp, null, null);

    assertThat(metrics.scrape())
        .contains("billing_webhook_deliveries_total{outcome=\"retried\",process=\"worker\",} 2.0")
        .contains("billing_webhook_deliveries_total{outcome=\"delivered\",process=\"worker\",} 2.0")
        .contains("billing_webhook_deliveries_total{outcome=\"failed\",process=\"worker\",} 2.0")
        .contains(
            "billing_webhook_deliveries_total{outcome=\"endpoint_deleted\",process=\"worker\",} 1.0")
        .contains("billing_webhook_delivery_lag_seconds_count{process=\"worker\",} 1.0")
        .contains("billing_webhook_delivery_lag_seconds_sum{process=\"worker\",} 90.0")
        .contains("billing_webhook_delivery_lag_seconds_max{process=\"worker\",} 90.0");
  }

  @Test
  void anAttemptThatFoundItsDeliveryFinishedIsNotCountedDelivered() {
    ProcessMetrics metrics = new ProcessMetrics("worker");
    BusinessMetrics business = new BusinessMetrics(metrics.registry());

    // What deliver() answers when the endpoint is in the event's finished set: no POST.
    business.activityEnded(
        "DeliverEvent", 2, INPUT, new DeliverEventResult(Outcome.DELIVERED, 2, null), null);
    business.activityEnded(
        "DeliverEvent", 1, INPUT, new DeliverEventResult(Outcome.DELIVERED, 1, 204, null), null);

    assertThat(metrics.scrape())
        .contains("billing_webhook_deliveries_total{outcome=\"delivered\",process=\"worker\",} 1.0")
        .contains(
            "billing_webhook_deliveries_total{outcome=\"already_finished\",process=\"worker\",} 1.0")
        .contains("billing_webhook_delivery_lag_seconds_count{process=\"worker\",} 0.0");
  }

  @Test
  void eachEndpointDisabledIsCounted() {
    ProcessMetrics metrics = new ProcessMetrics("worker");
    BusinessMetrics business = new BusinessMetrics(metrics.registry());
    assertThat(metrics.scrape())
        .contains("billing_webhook_endpoints_disabled_total{process=\"worker\",} 0.0");

    business.endpointDisabled("we_1");
    business.endpointDisabled("we_2");

    assertThat(metrics.scrape())
        .contains("billing_webhook_endpoints_disabled_total{process=\"worker\",} 2.0")
        .doesNotContain("we_1");
  }
}
