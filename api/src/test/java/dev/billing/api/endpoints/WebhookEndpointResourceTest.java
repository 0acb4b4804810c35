package dev.billing.api.endpoints;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** /v1/webhook-endpoints: operators register, read and delete endpoints; the secret shows once. */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebhookEndpointResourceTest {
  static final ResourceTestSupport API = ResourceTestSupport.start();
  private static final String PATH = "/v1/webhook-endpoints";

  private static Response create(String json) {
    return API.request(PATH).post(Entity.json(json));
  }

  private static JsonNode created(String url) {
    Response response = create("{\"url\":\"" + url + "\",\"events\":[\"*\"]}");
    assertThat(response.getStatus()).isEqualTo(201);
    return body(response);
  }

  @Test
  void aCreatedEndpointShowsItsSecretOnlyInTheCreateAnswer() {
    Response response =
        create(
            "{\"url\":\"https://merchant.example/hooks?x=1\","
                + "\"events\":[\"payment.failed\",\"subscription.canceled\",\"payment.failed\"],"
                + "\"description\":\"dunning alerts\"}");
    JsonNode created = body(response);

    assertThat(response.getStatus()).isEqualTo(201);
    assertThat(response.getHeaderString("Cache-Control")).contains("no-store");
    String id = created.get("id").asText();
    assertThat(id).matches("we_[0-9a-f]{24}");
    assertThat(response.getLocation().getPath()).isEqualTo(PATH + "/" + id);
    assertThat(created.get("url").asText()).isEqualTo("https://merchant.example/hooks?x=1");
    assertThat(created.get("events").toString())
        .isEqualTo("[\"payment.failed\",\"subscription.canceled\"]"); // duplicates collapsed
    assertThat(created.get("description").asText()).isEqualTo("dunning alerts");
    assertThat(created.get("createdAt").asText()).endsWith("Z");
    String secret = created.get("secret").asText();
    assertThat(secret).matches("whsec_[A-Za-z0-9_-]{43}");
    assertThat(API.stack().webhookEndpoints.secret(id)).contains(secret);

    JsonNode one = body(API.get(PATH + "/" + id));
    assertThat(one.has("secret")).isFalse();
    assertThat(one.toString()).doesNotContain(secret.substring(6));
    JsonNode expected = created.deepCopy();
    ((ObjectNode) expected).remove("secret");
    assertThat(one).isEqualTo(expected);
    String listing = API.get(PATH + "?limit=200").readEntity(String.class);
    assertThat(listing).contains(id).doesNotContain(secret.substring(6)).doesNotContain("secret");
  }

  @Test
  void listsInPages() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(created("https://m" + i + ".example/").get("id").asText());
    }
    List<String> listed = new ArrayList<>();
    String token = null;
    do {
      JsonNode page =
          body(API.get(PATH + "?limit=2" + (token == null ? "" : "&pageToken=" + token)));
      page.get("items").forEach(e -> listed.add(e.get("id").asText()));
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
    } while (token != null);

    assertThat(listed).containsAll(ids);
    assertInvalidField(API.get(PATH + "?limit=0"), "limit");
    assertInvalidField(API.get(PATH + "?pageToken=forged.token"), "pageToken");
  }

  @Test
  void deletesOnceThenAnswers404() {
    String id = created("https://merchant.example/").get("id").asText();

    try (Response deleted = API.request(PATH + "/" + id).delete()) {
      assertThat(deleted.getStatus()).isEqualTo(204);
    }
    assertProblem(API.request(PATH + "/" + id).delete(), 404);
    assertProblem(API.get(PATH + "/" + id), 404);
    assertProblem(API.get(PATH + "/we_0123456789abcdef01234567"), 404);
    assertProblem(API.get(PATH + "/not-an-endpoint"), 404);
    assertThat(API.stack().webhookEndpoints.secret(id)).isEmpty();
  }

  @Test
  void anInvalidRequestNamesTheField() {
    String events = ",\"events\":[\"*\"]";
    assertInvalidField(create("{\"events\":[\"*\"]}"), "url");
    assertInvalidField(create("{\"url\":\"merchant.example/hooks\"" + events + "}"), "url");
    assertInvalidField(create("{\"url\":\"http://merchant.example/\"" + events + "}"), "url");
    assertInvalidField(create("{\"url\":\"http://localhost:8080/\"" + events + "}"), "url");
    assertInvalidField(create("{\"url\":\"ftp://merchant.example/\"" + events + "}"), "url");
    assertInvalidField(create("{\"url\":\"https://u:p@merchant.example/\"" + events + "}"), "url");
    assertInvalidField(create("{\"url\":\"https://merchant example/\"" + events + "}"), "url");
    String longUrl = "https://merchant.example/" + "a".repeat(2049 - 25);
    assertThat(longUrl).hasSize(2049);
    assertInvalidField(create("{\"url\":\"" + longUrl + "\"" + events + "}"), "url");
    assertThat(created(longUrl.substring(0, 2048)).get("url").asText()).hasSize(2048);

    String url = "{\"url\":\"https://merchant.example/\"";
    assertInvalidField(create(url + "}"), "events");
    assertInvalidField(create(url + ",\"events\":[]}"), "events");
    assertInvalidField(create(url + ",\"events\":[\"payment.paid\"]}"), "events[0]");
    // Types no change of billing records: an endpoint would wait for them forever.
    assertInvalidField(create(url + ",\"events\":[\"subscription.revived\"]}"), "events[0]");
    assertInvalidField(create(url + ",\"events\":[\"payment.failed\",null]}"), "events[1]");
    assertInvalidField(create(url + ",\"events\":[\"*\",\"payment.failed\"]}"), "events");
    assertInvalidField(
        create(url + events + ",\"description\":\"" + "d".repeat(501) + "\"}"), "description");
    assertInvalidField(create(url + events + ",\"secret\":\"mine\"}"), "secret");

    JsonNode both = assertProblem(create("{\"url\":\"http://x\",\"events\":[]}"), 400);
    assertThat(both.get("errors").findValuesAsText("field")).containsExactly("url", "events");
    assertProblem(create(""), 400);
  }

  @Test
  void onlyOperatorsReachIt() {
    String accountKey = API.accountKey(newAccount());
    String body = "{\"url\":\"https://merchant.example/\",\"events\":[\"*\"]}";

    assertProblem(API.requestAs(accountKey, PATH).post(Entity.json(body)), 403);
    assertProblem(API.requestAs(accountKey, PATH).get(), 403);
    assertProblem(API.requestAs(accountKey, PATH + "/we_0123456789abcdef01234567").delete(), 403);
    assertProblem(API.requestAs(null, PATH).post(Entity.json(body)), 401);
    assertProblem(API.requestAs(null, PATH).get(), 401);
    assertProblem(API.requestAs("bk_nope_nope", PATH + "/we_0123456789abcdef01234567").get(), 401);
  }
}
