package dev.billing.api.endpoints;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.store.endpoints.WebhookEndpointStore;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An endpoint's status as read, and {@code POST /v1/webhook-endpoints/{id}/enable}: operators
 * enable again what delivery disabled.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebhookEndpointEnableTest {
  static final ResourceTestSupport API = ResourceTestSupport.start();
  private static final String PATH = "/v1/webhook-endpoints";
  private static final Instant SINCE = Instant.parse("2026-03-01T08:00:00Z");
  private static final Instant DISABLED_AT = Instant.parse("2026-03-06T08:00:00Z");

  private static String created() {
    Response response =
        API.request(PATH)
            .post(Entity.json("{\"url\":\"https://merchant.example/\",\"events\":[\"*\"]}"));
    assertThat(response.getStatus()).isEqualTo(201);
    JsonNode created = body(response);
    assertThat(created.get("status").asText()).isEqualTo("enabled");
    assertThat(created.get("disabledAt").isNull()).isTrue();
    assertThat(created.get("disabledReason").isNull()).isTrue();
    return created.get("id").asText();
  }

  /** What delivery does to an endpoint that kept failing. */
  private static void disable(String id) {
    WebhookEndpointStore endpoints = API.stack().webhookEndpoints;
    endpoints.startFailing(id, SINCE);
    assertThat(endpoints.disable(id, SINCE, DISABLED_AT, "Every delivery failed.")).isTrue();
  }

  private static Response enable(String id) {
    return API.request(PATH + "/" + id + "/enable").post(Entity.json(""));
  }

  @Test
  void aDisabledEndpointShowsWhenAndWhyInItsReadAndTheList() {
    String id = created();
    disable(id);

    JsonNode one = body(API.get(PATH + "/" + id));
    assertThat(one.get("status").asText()).isEqualTo("disabled");
    assertThat(one.get("disabledAt").asText()).isEqualTo("2026-03-06T08:00:00.000Z");
    assertThat(one.get("disabledReason").asText()).isEqualTo("Every delivery failed.");
    assertThat(one.has("failingSince")).as("bookkeeping of delivery's, not shown").isFalse();
    JsonNode listed = null;
    for (JsonNode item : body(API.get(PATH + "?limit=200")).get("items")) {
      if (item.get("id").asText().equals(id)) {
        listed = item;
      }
    }
    assertThat(listed).isEqualTo(one);
  }

  @Test
  void enablingAnswersTheEnabledEndpointAndTwiceChangesNothing() {
    String id = created();
    disable(id);

    Response first = enable(id);
    assertThat(first.getStatus()).isEqualTo(200);
    JsonNode enabled = body(first);
    assertThat(enabled.get("id").asText()).isEqualTo(id);
    assertThat(enabled.get("status").asText()).isEqualTo("enabled");
    assertThat(enabled.get("disabledAt").isNull()).isTrue();
    assertThat(enabled.get("disabledReason").isNull()).isTrue();
    assertThat(enabled.has("secret")).isFalse();
    assertThat(body(API.get(PATH + "/" + id))).isEqualTo(enabled);
    assertThat(API.stack().webhookEndpoints.find(id).orElseThrow().failingSince())
        .as("a fresh start")
        .isNull();

    Response again = enable(id);
    assertThat(again.getStatus()).isEqualTo(200);
    assertThat(body(again)).isEqualTo(enabled);
  }

  @Test
  void anUnknownEndpointIs404AndABadIdNamesIt() {
    assertProblem(enable("we_0123456789abcdef01234567"), 404);
    assertProblem(enable("not-an-endpoint"), 404);
    assertInvalidField(enable("bad%20id"), "endpointId");
    String gone = created();
    API.request(PATH + "/" + gone).delete().close();
    assertProblem(enable(gone), 404);
    assertThat(API.stack().webhookEndpoints.find(gone)).as("not recreated").isEmpty();
  }

  @Test
  void onlyOperatorsEnable() {
    String id = created();
    disable(id);
    String accountKey = API.accountKey(newAccount());

    assertProblem(
        API.requestAs(accountKey, PATH + "/" + id + "/enable").post(Entity.json("")), 403);
    assertProblem(API.requestAs(null, PATH + "/" + id + "/enable").post(Entity.json("")), 401);
    assertThat(body(API.get(PATH + "/" + id)).get("status").asText()).isEqualTo("disabled");
  }
}
