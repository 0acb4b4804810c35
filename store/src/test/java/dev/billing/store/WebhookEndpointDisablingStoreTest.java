package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An endpoint's failing streak, disabling and enabling on DynamoDB Local: each write conditional on
 * what delivery read, so deliveries racing on one endpoint decide once.
 */
class WebhookEndpointDisablingStoreTest extends StoreTestBase {
  private static final Instant CREATED = Instant.parse("2026-03-10T12:00:07.250Z");
  private static final Instant SINCE = Instant.parse("2026-03-11T00:00:00Z");
  private static final Instant DISABLED_AT = SINCE.plus(Duration.ofDays(5));

  private WebhookEndpointStore endpoints;
  private String id;

  @BeforeEach
  void createEndpoint() {
    endpoints = new WebhookEndpointStore(client, tables.billing(), Fixtures.KEY);
    id = id("we");
    endpoints.create(
        new WebhookEndpoint(id, "https://merchant.example/hooks", List.of("*"), null, CREATED),
        "whsec_secret");
  }

  private WebhookEndpoint found() {
    return endpoints.find(id).orElseThrow();
  }

  @Test
  void aNewEndpointIsEnabledWithoutAStreak() {
    WebhookEndpoint endpoint = found();
    assertThat(endpoint.status()).isEqualTo(WebhookEndpoint.Status.ENABLED);
    assertThat(endpoint.failingSince()).isNull();
    assertThat(endpoint.disabledAt()).isNull();
    assertThat(endpoint.disabledReason()).isNull();
  }

  @Test
  void aStreakStartsOnceAndASuccessEndsIt() {
    assertThat(endpoints.startFailing(id, SINCE)).isTrue();
    assertThat(endpoints.startFailing(id, SINCE.plusSeconds(60))).isFalse();
    assertThat(found().failingSince()).isEqualTo(SINCE);

    endpoints.recovered(id);
    endpoints.recovered(id);
    assertThat(found().failingSince()).isNull();
    assertThat(endpoints.startFailing(id, SINCE.plusSeconds(120))).isTrue();
    assertThat(found().failingSince()).isEqualTo(SINCE.plusSeconds(120));
  }

  @Test
  void disablesOnlyWhileTheStreakReadStillRuns() {
    endpoints.startFailing(id, SINCE);
    assertThat(endpoints.disable(id, SINCE.minusSeconds(1), DISABLED_AT, "stale read")).isFalse();
    endpoints.recovered(id);
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "a success came between")).isFalse();
    assertThat(found().enabled()).isTrue();

    endpoints.startFailing(id, SINCE);
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "kept failing")).isTrue();
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT.plusSeconds(5), "again")).isFalse();

    WebhookEndpoint disabled = found();
    assertThat(disabled.status()).isEqualTo(WebhookEndpoint.Status.DISABLED);
    assertThat(disabled.disabledAt()).isEqualTo(DISABLED_AT);
    assertThat(disabled.disabledReason()).isEqualTo("kept failing");
    Map<String, AttributeValue> item = billingItem("WEBHOOK_ENDPOINTS", "ENDPOINT#" + id);
    assertThat(item.get("EndpointStatus").s()).isEqualTo("DISABLED");
    assertThat(item.get("DisabledAt").s()).isEqualTo(DISABLED_AT.toString());
  }

  @Test
  void deliveriesRacingToDisableDisableOnce() throws Exception {
    endpoints.startFailing(id, SINCE);
    List<Callable<Boolean>> racers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Instant at = DISABLED_AT.plusMillis(i);
      racers.add(() -> endpoints.disable(id, SINCE, at, "kept failing"));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Boolean> won = new ArrayList<>();
      for (Future<Boolean> result : pool.invokeAll(racers)) {
        won.add(result.get());
      }
      assertThat(won).containsOnlyOnce(true);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void enablingClearsTheDisablingAndTheStreakAndIsIdempotent() {
    endpoints.startFailing(id, SINCE);
    endpoints.disable(id, SINCE, DISABLED_AT, "kept failing");

    WebhookEndpoint enabled = endpoints.enable(id).orElseThrow();
    assertThat(enabled.status()).isEqualTo(WebhookEndpoint.Status.ENABLED);
    assertThat(enabled.disabledAt()).isNull();
    assertThat(enabled.disabledReason()).isNull();
    assertThat(enabled.failingSince()).as("a fresh start").isNull();
    assertThat(endpoints.enable(id)).contains(enabled);
    assertThat(found()).isEqualTo(enabled);
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "a read from before the enabling"))
        .isFalse();
  }

  @Test
  void nothingIsWrittenForAnEndpointThatIsGone() {
    endpoints.delete(id);

    assertThat(endpoints.enable(id)).isEmpty();
    assertThat(endpoints.startFailing(id, SINCE)).isFalse();
    endpoints.recovered(id);
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "gone")).isFalse();
    assertThat(billingItem("WEBHOOK_ENDPOINTS", "ENDPOINT#" + id)).as("never recreated").isEmpty();
  }
}
