package dev.billing.api.deliveries;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.store.DeliveryAttempt;
import dev.billing.store.endpoints.WebhookEndpoint;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /v1/webhook-endpoints/{id}/deliveries} and {@code POST /v1/events/{id}/redeliver}:
 * operators only, 404 for what does not exist, paged like the other lists.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class DeliveryEndpointsTest {
  static final ResourceTestSupport API = ResourceTestSupport.start();
  private static final String SECRET = "whsec_resource_test_secret";
  private static final java.util.concurrent.atomic.AtomicInteger COUNTER =
      new java.util.concurrent.atomic.AtomicInteger();

  private static String endpoint(String... events) {
    String id =
        "we_"
            + java.util.HexFormat.of()
                .formatHex(
                    java.nio.ByteBuffer.allocate(12)
                        .putLong(System.nanoTime())
                        .putInt(COUNTER.incrementAndGet())
                        .array());
    API.stack()
        .webhookEndpoints
        .create(
            new WebhookEndpoint(
                id, "https://shop.example/hook", List.of(events), null, Instant.now()),
            SECRET);
    return id;
  }

  private static String event() {
    String account = newAccount();
    String sub = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    return "evt_" + sub + "_1_0";
  }

  private static void attempt(String endpointId, String eventId, int n, Instant at) {
    API.stack()
        .deliveries
        .record(
            new DeliveryAttempt(
                endpointId,
                eventId,
                "subscription.created",
                "sub",
                n,
                n < 3 ? DeliveryAttempt.Status.FAILED_ATTEMPT : DeliveryAttempt.Status.SUCCEEDED,
                n < 3 ? 503 : 204,
                n < 3 ? "http_503" : null,
                at),
            false);
  }

  @Test
  void anEndpointsAttemptsAreListedNewestFirstInPages() {
    String endpoint = endpoint("*");
    String event = event();
    Instant at = Instant.parse("2026-03-10T10:00:00Z");
    for (int n = 1; n <= 3; n++) {
      attempt(endpoint, event, n, at.plusSeconds(n));
    }

    JsonNode first = body(API.get("/v1/webhook-endpoints/" + endpoint + "/deliveries?limit=2"));
    assertThat(first.get("items")).hasSize(2);
    JsonNode newest = first.get("items").get(0);
    assertThat(newest.get("eventId").asText()).isEqualTo(event);
    assertThat(newest.get("eventType").asText()).isEqualTo("subscription.created");
    assertThat(newest.get("attempt").asInt()).isEqualTo(3);
    assertThat(newest.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(newest.get("httpStatus").asInt()).isEqualTo(204);
    assertThat(newest.get("error").isNull()).isTrue();
    assertThat(newest.get("at").asText()).isEqualTo("2026-03-10T10:00:03.000Z");
    assertThat(first.get("items").get(1).get("error").asText()).isEqualTo("http_503");
    JsonNode second =
        body(
            API.get(
                "/v1/webhook-endpoints/"
                    + endpoint
                    + "/deliveries?limit=2&pageToken="
                    + first.get("nextPageToken").asText()));
    assertThat(second.get("items")).hasSize(1);
    assertThat(second.get("nextPageToken").isNull()).isTrue();
    assertThat(first.toString()).doesNotContain(SECRET);
  }

  @Test
  void badPagingIs400NamingTheFieldAndAnUnknownEndpoint404() {
    String endpoint = endpoint("*");
    assertInvalidField(
        API.get("/v1/webhook-endpoints/" + endpoint + "/deliveries?limit=0"), "limit");
    assertInvalidField(
        API.get("/v1/webhook-endpoints/" + endpoint + "/deliveries?pageToken=forged.token"),
        "pageToken");
    assertProblem(API.get("/v1/webhook-endpoints/we_000000000000000000000000/deliveries"), 404);
    assertProblem(API.get("/v1/webhook-endpoints/not-an-endpoint/deliveries"), 404);
    assertInvalidField(API.get("/v1/webhook-endpoints/bad%20id/deliveries"), "endpointId");
  }

  @Test
  void aRedeliveryIsAcceptedForTheEndpointsOfItsTypeAndAnUnknownEvent404() {
    String wanted = endpoint("subscription.created");
    String other = endpoint("payment.failed");
    String event = event();

    Response response = API.request("/v1/events/" + event + "/redeliver").post(Entity.json(""));
    assertThat(response.getStatus()).isEqualTo(202);
    JsonNode answer = body(response);
    assertThat(answer.get("eventId").asText()).isEqualTo(event);
    List<String> to = new java.util.ArrayList<>();
    answer.get("endpointIds").forEach(id -> to.add(id.asText()));
    assertThat(to).contains(wanted).doesNotContain(other);
    assertThat(API.stack().redeliveries).contains(event + " by " + API.operatorPrincipal());

    assertProblem(API.request("/v1/events/evt_nosuch_1_0/redeliver").post(Entity.json("")), 404);
    assertProblem(API.request("/v1/events/nonsense/redeliver").post(Entity.json("")), 404);
  }

  @Test
  void aDisabledEndpointIsLeftOutOfARedeliveryUntilEnabled() {
    String disabled = endpoint("subscription.created");
    Instant since = Instant.parse("2026-03-01T00:00:00Z");
    API.stack().webhookEndpoints.startFailing(disabled, since);
    API.stack().webhookEndpoints.disable(disabled, since, since.plusSeconds(1), "kept failing");
    String event = event();

    JsonNode answer = body(API.request("/v1/events/" + event + "/redeliver").post(Entity.json("")));
    List<String> to = new java.util.ArrayList<>();
    answer.get("endpointIds").forEach(id -> to.add(id.asText()));
    assertThat(to).doesNotContain(disabled);

    API.stack().webhookEndpoints.enable(disabled);
    answer = body(API.request("/v1/events/" + event + "/redeliver").post(Entity.json("")));
    to.clear();
    answer.get("endpointIds").forEach(id -> to.add(id.asText()));
    assertThat(to).contains(disabled);
  }

  @Test
  void anAccountCredentialIsRefusedBoth() {
    String account = newAccount();
    String key = API.accountKey(account);
    String endpoint = endpoint("*");
    String event = event();

    assertProblem(
        API.requestAs(key, "/v1/webhook-endpoints/" + endpoint + "/deliveries").get(), 403);
    assertProblem(
        API.requestAs(key, "/v1/events/" + event + "/redeliver").post(Entity.json("")), 403);
  }
}
