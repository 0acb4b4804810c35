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
import dev.billing.store.endpoints.WebhookEndpoint;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An endpoint that stays down, on the real stack (the production delivery workflow and activities
 * on Temporal's time-skipping test server, DynamoDB Local, the API): disabled once every delivery
 * failed for five days without a gap, then sent nothing, enabled again by an operator, and sent
 * what it missed on redelivery. No workflow change: the workflow only sees deliveries end FAILED.
 */
@Tag("e2e")
class EndpointDisablingEndToEndTest {
  static final ApiTestSupport API = ApiTestSupport.startWithDelivery();

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  private static final String ENDPOINT = "we_00000000000000000000d15a";
  private static final String PATH = "/v1/webhook-endpoints/" + ENDPOINT;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static HttpServer server;
  private static final AtomicBoolean down = new AtomicBoolean(true);
  private static final AtomicInteger requests = new AtomicInteger();
  private static final List<String> received = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void startReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          try (exchange;
              InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            requests.incrementAndGet();
            if (down.get()) {
              exchange.sendResponseHeaders(503, -1);
              return;
            }
            received.add(JSON.readTree(body).get("id").asText());
            exchange.sendResponseHeaders(200, -1);
          }
        });
    server.start();
    API.stack()
        .webhookEndpoints
        .create(
            new WebhookEndpoint(
                ENDPOINT,
                "http://127.0.0.1:" + server.getAddress().getPort() + "/hook",
                List.of("*"),
                null,
                API.stack().clock.instant()),
            "whsec_disabling_secret");
  }

  @AfterAll
  static void stopReceiver() {
    server.stop(0);
  }

  private static String subscription(String account) {
    return API.created(account, ApiTestSupport.with(subscriptionBody(), "startDate", "2027-01-20"))
        .get("subscriptionId")
        .asText();
  }

  private static List<String> attempts(String eventId) {
    List<String> found = new ArrayList<>();
    body(API.get(PATH + "/deliveries?limit=200"))
        .get("items")
        .forEach(
            a -> {
              if (a.get("eventId").asText().equals(eventId)) {
                found.add(0, a.get("status").asText() + " " + a.get("error").asText());
              }
            });
    return found;
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  @Test
  void anEndpointDownFiveDaysIsDisabledSentNothingThenEnabledAndSentWhatItMissed()
      throws Exception {
    String account = newAccount();
    String first = subscription(account);
    assertThat(
            API.postJson(subscriptionPath(account, first) + "/cancel", "{\"reason\":\"t\"}", null)
                .getStatus())
        .isEqualTo(200);
    API.stack().env.sleep(Duration.ofDays(3));
    // The first events are given up (three days, then an hour); before the streak is five days old.
    String firstEvent = "evt_" + first + "_1_0";
    await(
        "the first events given up",
        () -> attempts(firstEvent).contains("FAILED retries_exhausted"));
    assertThat(body(API.get(PATH)).get("status").asText()).isEqualTo("enabled");

    // The next subscription's event keeps it failing without a gap: its retries disable it once
    // the streak is five days old, and its delivery ends there.
    String second = subscription(account);
    String secondEvent = "evt_" + second + "_1_0";
    API.stack().env.sleep(Duration.ofDays(3));
    await("disabled", () -> body(API.get(PATH)).get("status").asText().equals("disabled"));
    await(
        "its delivery ended",
        () -> !API.stack().deliveries.event(secondEvent).orElseThrow().owed());
    assertThat(attempts(secondEvent))
        .startsWith("FAILED_ATTEMPT http_503")
        .endsWith("FAILED endpoint_disabled")
        .doesNotContain("FAILED retries_exhausted");
    JsonNode disabled = body(API.get(PATH));
    assertThat(disabled.get("disabledAt").isNull()).isFalse();
    assertThat(disabled.get("disabledReason").asText()).contains("5 days").contains("http_503");

    // Nothing more is sent: a new event's delivery ends without a request.
    int before = requests.get();
    String third = subscription(account);
    String thirdEvent = "evt_" + third + "_1_0";
    await(
        "the third event finished for the endpoint",
        () ->
            API.stack()
                .deliveries
                .event(thirdEvent)
                .orElseThrow()
                .finishedFor()
                .contains(ENDPOINT));
    assertThat(attempts(thirdEvent)).containsExactly("FAILED endpoint_disabled");
    assertThat(requests.get()).as("no request to a disabled endpoint").isEqualTo(before);

    // The merchant fixed it: an operator enables it and sends what it missed.
    down.set(false);
    Response enabled = API.request(PATH + "/enable").post(Entity.json(""));
    assertThat(enabled.getStatus()).isEqualTo(200);
    assertThat(body(enabled).get("status").asText()).isEqualTo("enabled");
    Response redelivered =
        API.request("/v1/events/" + thirdEvent + "/redeliver").post(Entity.json(""));
    assertThat(redelivered.getStatus()).isEqualTo(202);
    await("the missed event received", () -> received.contains(thirdEvent));
    assertThat(received).containsExactly(thirdEvent);
  }
}
