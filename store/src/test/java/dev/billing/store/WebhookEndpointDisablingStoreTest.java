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

    assertThat(endpoints.recovered(id, SINCE)).isTrue();
    assertThat(endpoints.recovered(id, SINCE)).isFalse();
    assertThat(found().failingSince()).isNull();
    assertThat(found().lastFailedAt()).isNull();
    assertThat(endpoints.startFailing(id, SINCE.plusSeconds(120))).isTrue();
    assertThat(found().failingSince()).isEqualTo(SINCE.plusSeconds(120));
  }

  @Test
  void aStreakNotesItsLatestFailureOnlyWhileItRuns() {
    endpoints.startFailing(id, SINCE);
    assertThat(found().lastFailedAt()).as("its first failure").isEqualTo(SINCE);
    Instant later = SINCE.plus(Duration.ofHours(3));
    assertThat(endpoints.failedAgain(id, SINCE, later)).isTrue();
    assertThat(found().lastFailedAt()).isEqualTo(later);
    assertThat(found().failingSince()).isEqualTo(SINCE);
    assertThat(endpoints.failedAgain(id, SINCE.minusSeconds(1), later.plusSeconds(60)))
        .as("read before another streak")
        .isFalse();
    assertThat(found().lastFailedAt()).isEqualTo(later);
    assertThat(billingItem("WEBHOOK_ENDPOINTS", "ENDPOINT#" + id).get("LastFailedAt").s())
        .isEqualTo(later.toString());
  }

  @Test
  void aStaleStreakIsRestartedOnceAndNotOverAnotherStreak() {
    endpoints.startFailing(id, SINCE);
    Instant weekLater = SINCE.plus(Duration.ofDays(7));
    assertThat(endpoints.restartFailing(id, SINCE, weekLater)).isTrue();
    assertThat(endpoints.restartFailing(id, SINCE, weekLater.plusSeconds(5)))
        .as("another delivery read the same stale streak")
        .isFalse();
    assertThat(found().failingSince()).isEqualTo(weekLater);
    assertThat(found().lastFailedAt()).isEqualTo(weekLater);
    assertThat(endpoints.disable(id, SINCE, weekLater, "read the stale streak")).isFalse();
    assertThat(found().enabled()).isTrue();

    endpoints.recovered(id, weekLater);
    assertThat(endpoints.restartFailing(id, weekLater, weekLater.plusSeconds(9)))
        .as("a success ended it: the next failure starts one, not this")
        .isFalse();
    assertThat(found().failingSince()).isNull();
  }

  @Test
  void aSuccessEndsOnlyTheStreakItReadNotANewerOne() {
    // A 2xx that read the old streak, finishing after an enabling and a new streak began.
    endpoints.startFailing(id, SINCE);
    endpoints.disable(id, SINCE, DISABLED_AT, "kept failing");
    endpoints.enable(id);
    Instant newer = DISABLED_AT.plus(Duration.ofHours(1));
    endpoints.startFailing(id, newer);

    assertThat(endpoints.recovered(id, SINCE)).isFalse();
    assertThat(found().failingSince()).isEqualTo(newer);
    assertThat(endpoints.recovered(id, newer)).isTrue();
    assertThat(found().failingSince()).isNull();
  }

  @Test
  void aSuccessLeavesADisabledEndpointDisabledWithItsStreak() {
    endpoints.startFailing(id, SINCE);
    endpoints.disable(id, SINCE, DISABLED_AT, "kept failing");

    assertThat(endpoints.recovered(id, SINCE)).isFalse();
    WebhookEndpoint still = found();
    assertThat(still.status()).isEqualTo(WebhookEndpoint.Status.DISABLED);
    assertThat(still.failingSince()).isEqualTo(SINCE);
    assertThat(still.disabledAt()).isEqualTo(DISABLED_AT);
  }

  @Test
  void disablesOnlyWhileTheStreakReadStillRuns() {
    endpoints.startFailing(id, SINCE);
    assertThat(endpoints.disable(id, SINCE.minusSeconds(1), DISABLED_AT, "stale read")).isFalse();
    endpoints.recovered(id, SINCE);
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
    assertThat(enabled.lastFailedAt()).isNull();
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
    assertThat(endpoints.restartFailing(id, SINCE, DISABLED_AT)).isFalse();
    assertThat(endpoints.failedAgain(id, SINCE, DISABLED_AT)).isFalse();
    assertThat(endpoints.recovered(id, SINCE)).isFalse();
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "gone")).isFalse();
    assertThat(billingItem("WEBHOOK_ENDPOINTS", "ENDPOINT#" + id)).as("never recreated").isEmpty();
  }
}
