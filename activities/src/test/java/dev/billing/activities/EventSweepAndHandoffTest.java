package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.activities.delivery.EndpointDeliveryHandoff;
import dev.billing.activities.delivery.EventSweepActivitiesImpl;
import dev.billing.domain.RecordInput;
import dev.billing.store.EventDeliveryStore;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.workflows.activities.EventSweepInput;
import dev.billing.workflows.activities.EventSweepResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The two ways events reach delivery: the record activity's hand-off after a commit, and the sweep
 * of what is still owed; on DynamoDB Local.
 */
class EventSweepAndHandoffTest {
  private static final byte[] KEY =
      "test-page-token-key-32-bytes-min".getBytes(StandardCharsets.US_ASCII);
  private static final String EVENT = "evt_" + Fixtures.SUBSCRIPTION + "_1_0";

  private LocalDynamo dynamo;
  private WebhookEndpointStore endpoints;
  private EventDeliveryStore deliveries;
  private final List<String> signals = new ArrayList<>();

  @BeforeEach
  void start() {
    dynamo = new LocalDynamo();
    endpoints = new WebhookEndpointStore(dynamo.client, dynamo.tables.billing(), KEY);
    deliveries = new EventDeliveryStore(dynamo.store, KEY);
  }

  @AfterEach
  void stop() {
    dynamo.close();
  }

  private void endpoint(String... events) {
    endpoints.create(
        new WebhookEndpoint(
            "ep_" + events[0].replace('.', '_').replace('*', 'x'),
            "https://shop.example/hook",
            List.of(events),
            null,
            Fixtures.CREATED_AT),
        "whsec_x");
  }

  private EventSweepResult sweep(Duration after) {
    return new EventSweepActivitiesImpl(
            deliveries, endpoints, (sub, ids) -> signals.add(sub + " " + ids))
        .sweep(new EventSweepInput(Fixtures.CREATED_AT.plus(after), 4, 100));
  }

  @Test
  void theHandOffSignalsOnlyWhenSomeEndpointWantsOneOfTheChangesEvents() {
    RecordInput creation = Fixtures.creation();
    EndpointDeliveryHandoff handoff =
        new EndpointDeliveryHandoff(endpoints, (sub, ids) -> signals.add(sub + " " + ids));

    handoff.committed(creation);
    assertThat(signals).as("no endpoint at all").isEmpty();
    endpoint("payment.failed");
    handoff.committed(creation);
    assertThat(signals).as("none for subscription.created").isEmpty();
    endpoint("*");
    handoff.committed(creation);
    assertThat(signals).containsExactly(Fixtures.SUBSCRIPTION + " [" + EVENT + "]");
  }

  @Test
  void theSweepSignalsOwedEventsOnceTheirMinuteHasPassedPerSubscription() {
    dynamo.store.createSubscription(Fixtures.creation());
    endpoint("*");

    assertThat(sweep(Duration.ofSeconds(30)).found()).as("left to the record's signal").isZero();
    assertThat(sweep(Duration.ofMinutes(2))).isEqualTo(new EventSweepResult(1, 1, 0));
    assertThat(signals).containsExactly(Fixtures.SUBSCRIPTION + " [" + EVENT + "]");
    assertThat(sweep(Duration.ofDays(4)).found()).as("four days back").isEqualTo(1);
    assertThat(sweep(Duration.ofDays(5)).found()).as("older than the lookback").isZero();
  }

  @Test
  void withoutAnyEndpointTheSweepSettlesWhatIsOwedWithoutAWorkflow() {
    dynamo.store.createSubscription(Fixtures.creation());

    assertThat(sweep(Duration.ofMinutes(2))).isEqualTo(new EventSweepResult(1, 0, 1));
    assertThat(signals).isEmpty();
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isFalse();
    assertThat(sweep(Duration.ofMinutes(3)).found()).isZero();
  }
}
