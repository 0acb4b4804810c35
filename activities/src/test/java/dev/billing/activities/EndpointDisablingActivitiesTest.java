package dev.billing.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import dev.billing.activities.delivery.DeliveryActivitiesImpl;
import dev.billing.activities.delivery.DeliveryAddresses;
import dev.billing.activities.delivery.DeliveryDependencies;
import dev.billing.activities.delivery.EndpointDisabling;
import dev.billing.activities.delivery.HttpWebhookPoster;
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
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Disabling an endpoint that keeps failing, on DynamoDB Local, posting over HTTP to a receiver on
 * this machine: what it answers is scripted, what it received is counted.
 */
class EndpointDisablingActivitiesTest {
  private static final byte[] KEY =
      "test-page-token-key-32-bytes-min".getBytes(StandardCharsets.US_ASCII);
  private static final String EVENT = "evt_" + Fixtures.SUBSCRIPTION + "_1_0";
  private static final String ENDPOINT = "we_0123456789abcdef01234567";
  private static final Instant START = Instant.parse("2026-01-15T10:05:00Z");
  private static final Duration AFTER = Duration.ofDays(5);

  private LocalDynamo dynamo;
  private HttpServer receiver;
  private TestActivityEnvironment env;
  private WebhookEndpointStore endpoints;
  private EventDeliveryStore deliveries;
  private final AtomicInteger received = new AtomicInteger();
  private final AtomicInteger answer = new AtomicInteger(503);
  private final AtomicReference<Instant> now = new AtomicReference<>(START);
  private final List<String> disabled = new CopyOnWriteArrayList<>();
  private final AtomicReference<Runnable> onPost = new AtomicReference<>(() -> {});
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger healthLog =
      (Logger) LoggerFactory.getLogger(EndpointDisabling.class.getPackageName());

  @BeforeEach
  void start() throws Exception {
    dynamo = new LocalDynamo();
    endpoints = new WebhookEndpointStore(dynamo.client, dynamo.tables.billing(), KEY);
    deliveries = new EventDeliveryStore(dynamo.store, KEY);
    dynamo.store.createSubscription(Fixtures.creation());
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/hook",
        exchange -> {
          received.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          onPost.getAndSet(() -> {}).run();
          exchange.sendResponseHeaders(answer.get(), -1);
          exchange.close();
        });
    receiver.start();
    logs.start();
    healthLog.addAppender(logs);
    endpoints.create(
        new WebhookEndpoint(
            ENDPOINT,
            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook",
            List.of("*"),
            null,
            Fixtures.CREATED_AT),
        "whsec_s3cr3t");
    env = TestActivityEnvironment.newInstance();
    env.registerActivitiesImplementations(
        new DeliveryActivitiesImpl(
            new DeliveryDependencies(
                    deliveries,
                    endpoints,
                    new HttpWebhookPoster(),
                    new DeliveryAddresses(true),
                    now::get)
                .withDisabling(new EndpointDisabling(AFTER), disabled::add)));
  }

  @AfterEach
  void stop() {
    healthLog.detachAppender(logs);
    env.close();
    receiver.stop(0);
    dynamo.close();
  }

  private DeliveryActivities activities() {
    return DeliveryStubs.oneTry(env);
  }

  private DeliverEventResult deliver() {
    return activities().deliver(new DeliverEventInput(EVENT, ENDPOINT, true, false));
  }

  /** Other deliveries to the endpoint failed meanwhile, up to an hour before {@code at}. */
  private void keptFailingUntil(Instant at) {
    endpoints.failedAgain(ENDPOINT, endpoint().failingSince(), at.minus(Duration.ofHours(1)));
  }

  private void failsAt(Instant at) {
    now.set(at);
    assertThatThrownBy(this::deliver).isInstanceOf(ActivityFailure.class);
  }

  private WebhookEndpoint endpoint() {
    return endpoints.find(ENDPOINT).orElseThrow();
  }

  private List<DeliveryAttempt> attempts() {
    return deliveries.attempts(ENDPOINT, PageRequest.first(50)).items();
  }

  @Test
  void aDisabledEndpointsDeliveryEndsFailedWithoutAnyPost() {
    failsAt(START);
    endpoints.disable(ENDPOINT, START, START.plus(AFTER), "kept failing");
    int before = received.get();
    answer.set(200);

    DeliverEventResult result = deliver();

    assertThat(result.outcome()).isEqualTo(DeliverEventResult.Outcome.FAILED);
    assertThat(received.get()).as("the receiver got nothing").isEqualTo(before);
    assertThat(attempts())
        .extracting(DeliveryAttempt::status, DeliveryAttempt::error)
        .contains(tuple(DeliveryAttempt.Status.FAILED, "endpoint_disabled"));
    assertThat(deliveries.event(EVENT).orElseThrow().finishedFor()).containsExactly(ENDPOINT);
    assertThat(deliveries.event(EVENT).orElseThrow().owed())
        .as("its lane is free: the last endpoint owed is finished")
        .isFalse();
  }

  @Test
  void everyAttemptFailingForTheConfiguredTimeDisablesTheEndpointAndEndsTheDelivery() {
    failsAt(START);
    assertThat(endpoint().failingSince()).isEqualTo(START);
    keptFailingUntil(START.plus(Duration.ofDays(2)));
    failsAt(START.plus(Duration.ofDays(2)));
    assertThat(endpoint().failingSince()).as("the streak keeps its start").isEqualTo(START);
    assertThat(endpoint().lastFailedAt()).isEqualTo(START.plus(Duration.ofDays(2)));
    keptFailingUntil(START.plus(AFTER).minusSeconds(1));
    failsAt(START.plus(AFTER).minusSeconds(1));
    assertThat(endpoint().enabled()).isTrue();
    assertThat(disabled).isEmpty();

    now.set(START.plus(AFTER));
    DeliverEventResult ended = deliver();

    assertThat(ended.outcome()).isEqualTo(DeliverEventResult.Outcome.FAILED);
    WebhookEndpoint found = endpoint();
    assertThat(found.status()).isEqualTo(WebhookEndpoint.Status.DISABLED);
    assertThat(found.disabledAt()).isEqualTo(START.plus(AFTER));
    assertThat(found.disabledReason()).contains(START.toString()).contains("http_503");
    assertThat(disabled).containsExactly(ENDPOINT);
    assertThat(received.get()).isEqualTo(4);
    assertThat(attempts())
        .extracting(DeliveryAttempt::status, DeliveryAttempt::error)
        .containsExactlyInAnyOrder(
            tuple(DeliveryAttempt.Status.FAILED, "endpoint_disabled"),
            tuple(DeliveryAttempt.Status.FAILED_ATTEMPT, "http_503"),
            tuple(DeliveryAttempt.Status.FAILED_ATTEMPT, "http_503"),
            tuple(DeliveryAttempt.Status.FAILED_ATTEMPT, "http_503"),
            tuple(DeliveryAttempt.Status.FAILED_ATTEMPT, "http_503"));
  }

  @Test
  void aSuccessEndsTheStreakSoTheTimeCountsFromTheNextFailure() {
    failsAt(START);
    now.set(START.plus(Duration.ofDays(4)));
    answer.set(200);
    assertThat(deliver().outcome()).isEqualTo(DeliverEventResult.Outcome.DELIVERED);
    assertThat(endpoint().failingSince()).isNull();

    answer.set(500);
    now.set(START.plus(Duration.ofDays(6)));
    // Sent again on request: the event's own delivery is finished.
    assertThatThrownBy(
            () -> activities().deliver(new DeliverEventInput(EVENT, ENDPOINT, true, true)))
        .isInstanceOf(ActivityFailure.class);

    assertThat(endpoint().enabled())
        .as("6 days after the first failure, 2 after a success")
        .isTrue();
    assertThat(endpoint().failingSince()).isEqualTo(START.plus(Duration.ofDays(6)));
    assertThat(disabled).isEmpty();
  }

  @Test
  void aFailureAfterAGapWithNoAttemptsStartsANewStreakInsteadOfDisabling() {
    // Down three days, then no event for a week: a transient failure of the next one.
    failsAt(START);
    keptFailingUntil(START.plus(Duration.ofDays(3)));
    Instant weekLater = START.plus(Duration.ofDays(10));
    failsAt(weekLater);

    WebhookEndpoint found = endpoint();
    assertThat(found.enabled()).isTrue();
    assertThat(found.failingSince()).isEqualTo(weekLater);
    assertThat(found.lastFailedAt()).isEqualTo(weekLater);
    assertThat(disabled).isEmpty();
  }

  @Test
  void aSuccessThatReadAnOlderStreakLeavesTheNewerOne() {
    failsAt(START);
    Instant newer = START.plus(Duration.ofMinutes(5));
    // During the POST an operator enables it and another delivery's failure starts a streak.
    onPost.set(
        () -> {
          endpoints.enable(ENDPOINT);
          endpoints.startFailing(ENDPOINT, newer);
        });
    answer.set(200);
    now.set(START.plus(Duration.ofMinutes(6)));

    assertThat(deliver().outcome()).isEqualTo(DeliverEventResult.Outcome.DELIVERED);
    assertThat(endpoint().failingSince()).isEqualTo(newer);
  }

  @Test
  void aDisabledEndpointThatAnswersStaysDisabledAndIsLogged() {
    failsAt(START);
    keptFailingUntil(START.plus(AFTER));
    // Another delivery disables it while this one's POST is on its way.
    onPost.set(() -> endpoints.disable(ENDPOINT, START, START.plus(AFTER), "kept failing"));
    answer.set(200);
    now.set(START.plus(AFTER).plusSeconds(1));

    assertThat(deliver().outcome()).isEqualTo(DeliverEventResult.Outcome.DELIVERED);
    WebhookEndpoint found = endpoint();
    assertThat(found.status()).isEqualTo(WebhookEndpoint.Status.DISABLED);
    assertThat(found.failingSince()).as("its streak stays with it").isEqualTo(START);
    assertThat(logs.list)
        .filteredOn(e -> e.getLevel() == Level.WARN)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains(ENDPOINT)
                    .contains("answered 2xx")
                    .contains("disabled at " + START.plus(AFTER)));
  }

  @Test
  void aDisabledEndpointIsNotPlannedButItsMissedEventIsRecordedAndARedeliverySkipsIt() {
    failsAt(START);
    endpoints.disable(ENDPOINT, START, START.plus(AFTER), "kept failing");
    int before = received.get();

    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), false))
                .events())
        .containsExactly(
            new PlannedEvent(EVENT, "subscription.created", Fixtures.CREATED_AT, List.of()));
    assertThat(attempts())
        .extracting(DeliveryAttempt::status, DeliveryAttempt::error)
        .contains(tuple(DeliveryAttempt.Status.FAILED, "endpoint_disabled"));
    assertThat(deliveries.event(EVENT).orElseThrow().owed()).isFalse();
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), true))
                .events()
                .get(0)
                .endpointIds())
        .as("a redelivery goes to enabled endpoints only")
        .isEmpty();

    endpoints.enable(ENDPOINT);
    assertThat(
            activities()
                .plan(new PlanDeliveriesInput(Fixtures.SUBSCRIPTION, List.of(EVENT), true))
                .events()
                .get(0)
                .endpointIds())
        .containsExactly(ENDPOINT);
    assertThat(received.get()).isEqualTo(before);
  }
}
