package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.activities.delivery.DeliveryActivitiesImpl;
import dev.billing.activities.delivery.DeliveryAddresses;
import dev.billing.activities.delivery.DeliveryDependencies;
import dev.billing.activities.delivery.DeliveryOutcomes;
import dev.billing.activities.delivery.DeliverySignature;
import dev.billing.activities.delivery.WebhookPoster;
import dev.billing.store.DeliveryAttempt;
import dev.billing.store.EventDeliveryStore;
import dev.billing.store.PageRequest;
import dev.billing.store.endpoints.WebhookEndpoint;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.workflows.activities.DeliverEventInput;
import dev.billing.workflows.activities.DeliverEventResult;
import dev.billing.workflows.activities.DeliveryActivities;
import dev.billing.workflows.activities.PlanDeliveriesInput;
import dev.billing.workflows.activities.PlanDeliveriesResult.PlannedEvent;
import io.temporal.failure.ActivityFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Delivery's steps on DynamoDB Local, posting to a scripted endpoint. */
class DeliveryActivitiesTest {
  private static final byte[] KEY =
      "test-page-token-key-32-bytes-min".getBytes(StandardCharsets.US_ASCII);
  private static final String SECRET = "whsec_s3cr3t";
  private static final String EVENT = "evt_" + Fixtures.SUBSCRIPTION + "_1_0";
  private static final Instant NOW = Instant.parse("2026-01-15T10:05:00Z");

  /** One request the scripted endpoint received. */
  record Post(URI url, Map<String, String> headers, byte[] body) {}

  private LocalDynamo dynamo;
  private TestActivityEnvironment env;
  private WebhookEndpointStore endpoints;
  private EventDeliveryStore deliveries;
  private final List<Post> posts = new ArrayList<>();
  private volatile Object answer = 200;
  private final java.util.concurrent.atomic.AtomicLong ticks =
      new java.util.concurrent.atomic.AtomicLong();

  @BeforeEach
  void start() {
    dynamo = new LocalDynamo();
    endpoints = new WebhookEndpointStore(dynamo.client, dynamo.tables.billing(), KEY);
    deliveries = new EventDeliveryStore(dynamo.store, KEY);
    dynamo.store.createSubscription(Fixtures.creation());
    WebhookPoster poster =
        (url, headers, body) -> {
          posts.add(new Post(url, headers, body));
          if (answer instanceof IOException e) {
            throw e;
          }
          return (Integer) answer;
        };
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(
        new DeliveryActivitiesImpl(
            new DeliveryDependencies(
                deliveries,
                endpoints,
                poster,
                new DeliveryAddresses(
                    false,
                    host ->
                        new java.net.InetAddress[] {
                          java.net.InetAddress.getByName(
                              host.equals("shop.example") ? "93.184.216.34" : "127.0.0.1")
                        }),
                () -> NOW.plusSeconds(ticks.getAndIncrement()))));
  }

  @AfterEach
  void stop() {
    env.close();
    dynamo.close();
  }

  private DeliveryActivities activities() {
    return DeliveryStubs.oneTry(env);
  }

  private void endpoint(String id, String url, String... events) {
    endpoints.create(
        new WebhookEndpoint(id, url, List.of(events), null, Fixtures.CREATED_AT), SECRET);
  }

  private List<DeliveryAttempt> attempts(String endpointId) {
    return deliveries.attempts(endpointId, PageRequest.first(50)).items();
  }

  @Test
  void anEventIsPlannedForTheEndpointsOfItsTypeAndSettledWhenNoneWantsIt() {
    endpoint("ep_all", "https://shop.example/all", "*");
    endpoint("ep_pay", "https://shop.example/pay", "payment.succeeded");
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), false))
                .events())
        .containsExactly(
            new PlannedEvent(
                EVENT, "subscription.created", Fixtures.CREATED_AT, List.of("ep_all")));
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isTrue();

    endpoints.delete("ep_all");
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), false))
                .events())
        .containsExactly(
            new PlannedEvent(EVENT, "subscription.created", Fixtures.CREATED_AT, List.of()));
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isFalse();
  }

  @Test
  void anEndpointRegisteredAfterAnEventIsNotOwedItButARedeliveryReachesIt() {
    endpoints.create(
        new WebhookEndpoint(
            "ep_late",
            "https://shop.example/late",
            List.of("*"),
            null,
            Fixtures.CREATED_AT.plusSeconds(1)),
        SECRET);
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), false))
                .events())
        .containsExactly(
            new PlannedEvent(EVENT, "subscription.created", Fixtures.CREATED_AT, List.of()));
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), true))
                .events())
        .containsExactly(
            new PlannedEvent(
                EVENT, "subscription.created", Fixtures.CREATED_AT, List.of("ep_late")));
  }

  @Test
  void anEarlierEventStillOwedIsPlannedBeforeTheEventsAskedAndOnlyWhileOwed() {
    endpoint("ep_all", "https://shop.example/all", "*");
    endpoint("ep_pay", "https://shop.example/pay", "payment.succeeded");
    dynamo.store.updateSubscription(Fixtures.paid(Fixtures.created(), "sbx_ch_1", NOW));
    List<String> paid =
        dev.billing.store.MerchantEventStore.idsOf(
            Fixtures.paid(Fixtures.created(), "sbx_ch_1", NOW));
    assertThat(paid).isNotEmpty().doesNotContain(EVENT);

    // Only the payment's events are asked: the creation's hand-off was lost.
    List<String> planned =
        activities()
            .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(paid.get(0)), false))
            .events()
            .stream()
            .map(PlannedEvent::eventId)
            .toList();
    assertThat(planned).containsExactly(EVENT, paid.get(0));
    PlannedEvent creation =
        activities()
            .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(paid.get(0)), false))
            .events()
            .get(0);
    assertThat(creation)
        .as("owed to the endpoints of its type only")
        .isEqualTo(
            new PlannedEvent(
                EVENT, "subscription.created", Fixtures.CREATED_AT, List.of("ep_all")));

    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(paid.get(0)), true))
                .events())
        .as("a redelivery sends the one event asked")
        .extracting(PlannedEvent::eventId)
        .containsExactly(paid.get(0));

    activities().deliver(new DeliverEventInput(EVENT, "ep_all", true, false));
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(paid.get(0)), false))
                .events())
        .as("delivered: no longer owed")
        .extracting(PlannedEvent::eventId)
        .containsExactly(paid.get(0));
  }

  @Test
  void aDeliveryPostsTheEventSignedAndRecordsItsSuccess() throws Exception {
    endpoint("ep_1", "https://shop.example/hook", "*");
    DeliverEventResult result =
        activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false));

    assertThat(result.outcome()).isEqualTo(DeliverEventResult.Outcome.DELIVERED);
    assertThat(result.lagMillis()).as("change to 2xx").isEqualTo(300_000L);
    Post post = posts.get(0);
    assertThat(post.url()).isEqualTo(URI.create("https://shop.example/hook"));
    String signature = post.headers().get("Billing-Signature");
    long t = Long.parseLong(signature.substring(2, signature.indexOf(',')));
    assertThat(signature).isEqualTo(DeliverySignature.header(SECRET, t, post.body()));
    JsonNode body = new ObjectMapper().readTree(post.body());
    assertThat(body.get("id").asText()).isEqualTo(EVENT);
    assertThat(body.get("type").asText()).isEqualTo("subscription.created");
    assertThat(body.get("data").get("subscription").get("subscriptionId").asText())
        .isEqualTo(Fixtures.SUBSCRIPTION);
    assertThat(attempts("ep_1"))
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.status()).isEqualTo(DeliveryAttempt.Status.SUCCEEDED);
              assertThat(a.httpStatus()).isEqualTo(200);
              assertThat(a.attempt()).isEqualTo(1);
              assertThat(a.at()).isEqualTo(NOW);
            });
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).as("the last owed").isFalse();

    assertThat(DeliveryOutcomes.alreadyFinished(result)).as("a 2xx of this attempt").isFalse();
    DeliverEventResult again =
        activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false));
    assertThat(again.outcome())
        .as("the workflow's lane ends as before")
        .isEqualTo(result.outcome());
    assertThat(again.lagMillis()).as("not delivered now: no lag").isNull();
    assertThat(again.httpStatus()).isNull();
    assertThat(DeliveryOutcomes.alreadyFinished(again)).as("not counted as delivered").isTrue();
    assertThat(posts).as("a retry after the record sends nothing again").hasSize(1);
  }

  @Test
  void aFailedAttemptIsRecordedAndRetriedWithoutTheSecretOrTheUrlInItsMessage() {
    endpoint("ep_1", "https://shop.example/hook?token=abc", "*");
    answer = 503;
    assertThatThrownBy(
            () -> activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false)))
        .isInstanceOf(ActivityFailure.class)
        .rootCause()
        .hasMessageContaining("http_503")
        .hasMessageNotContaining(SECRET)
        .hasMessageNotContaining("token=abc");
    answer = new ConnectException("refused");
    assertThatThrownBy(
            () -> activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false)))
        .isInstanceOf(ActivityFailure.class);

    assertThat(attempts("ep_1"))
        .extracting(DeliveryAttempt::status, DeliveryAttempt::httpStatus, DeliveryAttempt::error)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                DeliveryAttempt.Status.FAILED_ATTEMPT, 503, "http_503"),
            org.assertj.core.groups.Tuple.tuple(
                DeliveryAttempt.Status.FAILED_ATTEMPT, null, "connect_failed"));
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isTrue();
  }

  @Test
  void goneEndsTheDeliveryAtOnce() {
    endpoint("ep_1", "https://shop.example/hook", "*");
    answer = 410;
    assertThat(activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false)).outcome())
        .isEqualTo(DeliverEventResult.Outcome.FAILED);
    assertThat(attempts("ep_1"))
        .singleElement()
        .satisfies(a -> assertThat(a.status()).isEqualTo(DeliveryAttempt.Status.FAILED));
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isFalse();
  }

  @Test
  void anAddressThatResolvesInsideOurNetworkIsNeverPosted() {
    endpoint("ep_1", "https://rebound.example/hook", "*");
    assertThat(activities().deliver(new DeliverEventInput(EVENT, "ep_1", true, false)).outcome())
        .isEqualTo(DeliverEventResult.Outcome.FAILED);
    assertThat(posts).isEmpty();
    assertThat(attempts("ep_1"))
        .singleElement()
        .satisfies(a -> assertThat(a.error()).isEqualTo("address_not_public"));
  }

  @Test
  void aDeletedEndpointEndsItsQueue() {
    assertThat(activities().deliver(new DeliverEventInput(EVENT, "ep_gone", true, false)).outcome())
        .isEqualTo(DeliverEventResult.Outcome.ENDPOINT_DELETED);
    assertThat(posts).isEmpty();
  }
}
