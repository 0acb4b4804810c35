package dev.billing.api.deliveries;

import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.domain.Digests;
import dev.billing.store.endpoints.WebhookEndpoint;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Merchant events on the real stack (the production worker with delivery on Temporal's
 * time-skipping test server, DynamoDB Local, the API), posted to a receiver on this machine that
 * checks every signature as a product would: order, retries, a day's outage.
 */
@Tag("e2e")
class WebhookDeliveryEndToEndTest {
  static final ApiTestSupport API = ApiTestSupport.startWithDelivery();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  private static final String SECRET = "whsec_end_to_end_secret";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Receiver receiver;

  /** What a merchant's server received, signature checked. */
  record Received(
      String eventId, String type, String subscriptionId, boolean signed, JsonNode body) {}

  /** A product's webhook endpoint: 503 while {@link #down}, else 200 for a valid signature. */
  static final class Receiver {
    final HttpServer server;
    final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    final AtomicBoolean down = new AtomicBoolean();
    final AtomicInteger refused = new AtomicInteger();

    Receiver() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/hook",
          exchange -> {
            try (exchange;
                InputStream in = exchange.getRequestBody()) {
              byte[] body = in.readAllBytes();
              if (down.get()) {
                refused.incrementAndGet();
                exchange.sendResponseHeaders(503, -1);
                return;
              }
              String header = exchange.getRequestHeaders().getFirst("Billing-Signature");
              JsonNode event = JSON.readTree(body);
              received.add(
                  new Received(
                      event.get("id").asText(),
                      event.get("type").asText(),
                      event.path("data").path("subscription").path("subscriptionId").asText(),
                      verifies(header, body),
                      event));
              exchange.sendResponseHeaders(200, -1);
            }
          });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    List<Received> of(String subscriptionId) {
      synchronized (received) {
        return received.stream().filter(r -> r.subscriptionId().equals(subscriptionId)).toList();
      }
    }

    /** The receiving side's check, written from the contract rather than from our code. */
    static boolean verifies(String header, byte[] body) {
      if (header == null || !header.matches("t=\\d+,v1=[0-9a-f]{64}")) {
        return false;
      }
      String t = header.substring(2, header.indexOf(','));
      String v1 = header.substring(header.indexOf("v1=") + 3);
      byte[] signed = new byte[t.length() + 1 + body.length];
      System.arraycopy((t + ".").getBytes(), 0, signed, 0, t.length() + 1);
      System.arraycopy(body, 0, signed, t.length() + 1, body.length);
      return Digests.hex(Digests.hmacSha256(SECRET.getBytes(), signed)).equals(v1)
          && Math.abs(Instant.now().getEpochSecond() - Long.parseLong(t)) < 300;
    }
  }

  @BeforeAll
  static void startReceiver() throws IOException {
    receiver = new Receiver();
    API.stack()
        .webhookEndpoints
        .create(
            new WebhookEndpoint(
                "we_0000000000000000000000e2",
                receiver.url(),
                List.of("*"),
                null,
                API.stack().clock.instant()),
            SECRET);
  }

  @AfterAll
  static void stopReceiver() {
    receiver.server.stop(0);
  }

  private static List<String> recordedEventIds(String subscriptionId) {
    List<String> ids = new ArrayList<>();
    body(API.get("/v1/events?subscriptionId=" + subscriptionId + "&limit=200"))
        .get("items")
        .forEach(e -> ids.add(0, e.get("id").asText())); // newest first: reversed
    return ids;
  }

  private static List<Received> awaitReceived(String subscriptionId, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (receiver.of(subscriptionId).size() < count && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    return receiver.of(subscriptionId);
  }

  private static void cancel(String account, String subscriptionId) {
    assertThat(
            API.postJson(
                    subscriptionPath(account, subscriptionId) + "/cancel",
                    "{\"reason\":\"end of test\"}",
                    null)
                .getStatus())
        .isEqualTo(200);
  }

  @Test
  void everyEventReachesTheEndpointSignedInOrderOnceAndAsTheApiShowsIt() throws Exception {
    String account = newAccount();
    String sub = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    API.stack().env.sleep(Duration.ofDays(12)); // past the first charge on 2026-03-20
    cancel(account, sub);

    List<String> recorded = recordedEventIds(sub);
    List<Received> got = awaitReceived(sub, recorded.size());
    assertThat(got).extracting(Received::eventId).containsExactlyElementsOf(recorded);
    assertThat(got)
        .extracting(Received::type)
        .containsSubsequence(
            "subscription.created", "subscription.activated", "subscription.canceled");
    assertThat(got).allSatisfy(r -> assertThat(r.signed()).as(r.eventId()).isTrue());
    for (Received r : got) {
      assertThat(r.body()).isEqualTo(body(API.get("/v1/events/" + r.eventId())));
    }
    JsonNode attempts =
        body(API.get("/v1/webhook-endpoints/we_0000000000000000000000e2/deliveries?limit=200"));
    List<String> succeeded = new ArrayList<>();
    attempts
        .get("items")
        .forEach(
            a -> {
              if (a.get("status").asText().equals("SUCCEEDED")
                  && a.get("subscriptionId").asText().equals(sub)) {
                succeeded.add(a.get("eventId").asText());
              }
            });
    assertThat(succeeded).containsExactlyInAnyOrderElementsOf(recorded);
    assertThat(attempts.toString()).doesNotContain(SECRET);
    for (String id : recorded) {
      assertThat(API.stack().deliveries.event(id).orElseThrow().owed())
          .as("settled " + id)
          .isFalse();
    }
  }

  @Test
  void anEndpointDownForADayReceivesEveryEventAfterwardsInOrderOnceEach() throws Exception {
    String account = newAccount();
    receiver.down.set(true);
    String sub;
    try {
      sub =
          API.created(account, ApiTestSupport.with(subscriptionBody(), "startDate", "2027-01-20"))
              .get("subscriptionId")
              .asText();
      cancel(account, sub);
      API.stack().env.sleep(Duration.ofDays(1));
      assertThat(receiver.refused.get()).as("retried while down").isGreaterThan(10);
      assertThat(receiver.of(sub)).isEmpty();
    } finally {
      receiver.down.set(false);
    }
    API.stack().env.sleep(Duration.ofHours(1)); // the next try is at most an hour away

    List<String> recorded = recordedEventIds(sub);
    assertThat(recorded).hasSize(2);
    List<Received> got = awaitReceived(sub, recorded.size());
    assertThat(got).extracting(Received::eventId).containsExactlyElementsOf(recorded);
    JsonNode attempts =
        body(API.get("/v1/webhook-endpoints/we_0000000000000000000000e2/deliveries?limit=200"));
    List<String> statuses = new ArrayList<>();
    attempts
        .get("items")
        .forEach(
            a -> {
              if (a.get("eventId").asText().equals(recorded.get(0))) {
                statuses.add(a.get("status").asText() + " " + a.get("httpStatus").asText());
              }
            });
    assertThat(statuses.get(0)).isEqualTo("SUCCEEDED 200");
    assertThat(statuses.subList(1, statuses.size())).allMatch(s -> s.equals("FAILED_ATTEMPT 503"));
    assertThat(statuses.size()).isGreaterThan(10);
  }

  @Test
  void eventsWhoseHandOffWasLostReachTheEndpointBeforeLaterEventsInOrderOnceEach()
      throws Exception {
    String account = newAccount();
    LocalDate start = LocalDate.ofInstant(API.stack().clock.instant(), ZoneOffset.UTC);
    start = start.plusDays(5);
    while (start.getDayOfMonth() > 28) { // a billing day every month has
      start = start.plusDays(1);
    }
    Map<String, Object> body =
        ApiTestSupport.with(subscriptionBody(), "startDate", start.toString());
    body.put("billingDay", start.getDayOfMonth());
    String sub = API.created(account, body).get("subscriptionId").asText();
    assertThat(awaitReceived(sub, 1))
        .extracting(Received::type)
        .containsExactly("subscription.created");

    // The first charge's change is committed but never handed to delivery (its signal failed), and
    // no sweep runs on this stack: only the next change's hand-off can bring it.
    long lostBefore = API.stack().handoffsLost.get();
    API.stack().handoffLost.add(sub);
    try {
      API.stack().env.sleep(Duration.ofDays(10)); // past the first charge
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (API.stack().handoffsLost.get() == lostBefore && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      API.stack().awaitNoWrites(Duration.ofMillis(500));
    } finally {
      API.stack().handoffLost.remove(sub);
    }
    assertThat(API.stack().handoffsLost.get()).as("hand-offs lost").isGreaterThan(lostBefore);
    List<String> beforeCancel = recordedEventIds(sub);
    assertThat(beforeCancel).as("the charge wrote events").hasSizeGreaterThan(1);
    assertThat(receiver.of(sub)).extracting(Received::eventId).containsExactly(beforeCancel.get(0));

    cancel(account, sub);
    List<String> recorded = recordedEventIds(sub);
    assertThat(recorded).hasSizeGreaterThan(beforeCancel.size());
    awaitReceived(sub, recorded.size());
    Thread.sleep(500); // a duplicate would come right behind
    List<Received> got = receiver.of(sub);
    assertThat(got).extracting(Received::eventId).containsExactlyElementsOf(recorded);
    assertThat(got).allSatisfy(r -> assertThat(r.signed()).as(r.eventId()).isTrue());
    for (String id : recorded) {
      assertThat(API.stack().deliveries.event(id).orElseThrow().owed())
          .as("settled " + id)
          .isFalse();
    }
  }
}
