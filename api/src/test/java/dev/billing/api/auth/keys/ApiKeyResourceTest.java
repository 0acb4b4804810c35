package dev.billing.api.auth.keys;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ResourceTestSupport;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * /v1/api-keys: operators create, list and revoke keys; a token is shown once, a hash never. That
 * no server log carries a token, Jetty's included, is {@link dev.billing.api.ApplicationTest}'s.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ApiKeyResourceTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  private static Response create(String json) {
    return API.request("/v1/api-keys").post(Entity.json(json));
  }

  private static int status(Response response) {
    try (response) {
      response.readEntity(String.class);
      return response.getStatus();
    }
  }

  @Test
  void aCreatedKeyWorksAtOnceAndItsTokenIsShownOnlyThen() {
    String account = newAccount();

    Response response =
        create("{\"role\":\"account\",\"accountId\":\"" + account + "\",\"label\":\"mobile app\"}");
    JsonNode created = body(response);

    assertThat(response.getStatus()).isEqualTo(201);
    assertThat(response.getHeaderString("Cache-Control")).contains("no-store");
    String keyId = created.get("keyId").asText();
    assertThat(response.getLocation().getPath()).isEqualTo("/v1/api-keys/" + keyId);
    assertThat(created.get("apiKey").asText()).matches("bk_" + keyId + "_[0-9a-f]{64}");
    assertThat(created.get("role").asText()).isEqualTo("account");
    assertThat(created.get("accountId").asText()).isEqualTo(account);
    assertThat(created.get("createdBy").asText()).isEqualTo(API.operatorPrincipal());
    assertThat(
            status(API.requestAs(created.get("apiKey").asText(), subscriptionsPath(account)).get()))
        .isEqualTo(200);

    String listing = API.get("/v1/api-keys").readEntity(String.class);
    String one = API.get("/v1/api-keys/" + keyId).readEntity(String.class);
    String stored = API.stack().apiKeys.find(keyId).orElseThrow().hash();
    for (String text : new String[] {listing, one}) {
      assertThat(text)
          .contains(keyId)
          .doesNotContain(created.get("apiKey").asText().substring(20))
          .doesNotContain(stored)
          .doesNotContain("apiKey");
    }
    assertThat(
            ApiKeyTokens.matches(
                ApiKeyTokens.parse(created.get("apiKey").asText()).orElseThrow(), stored))
        .isTrue();
  }

  @Test
  void aRevokedKeyStopsWorkingAtOnceOnThisInstance() {
    String account = newAccount();
    JsonNode created = body(create("{\"role\":\"account\",\"accountId\":\"" + account + "\"}"));
    String token = created.get("apiKey").asText();
    String keyId = created.get("keyId").asText();
    assertThat(status(API.requestAs(token, subscriptionsPath(account)).get()))
        .isEqualTo(200); // now cached

    JsonNode revoked = body(API.request("/v1/api-keys/" + keyId + "/revoke").post(Entity.json("")));
    JsonNode again = body(API.request("/v1/api-keys/" + keyId + "/revoke").post(Entity.json("")));

    assertThat(revoked.get("revokedBy").asText()).isEqualTo(API.operatorPrincipal());
    assertThat(again).isEqualTo(revoked);
    assertProblem(API.requestAs(token, subscriptionsPath(account)).get(), 401);
    JsonNode listed =
        StreamSupport.stream(body(API.get("/v1/api-keys")).get("items").spliterator(), false)
            .filter(k -> k.get("keyId").asText().equals(keyId))
            .findFirst()
            .orElseThrow();
    assertThat(listed.get("revokedAt").asText()).isEqualTo(revoked.get("revokedAt").asText());
  }

  @Test
  void anInvalidRequestNamesTheField() {
    assertThat(assertInvalidField(create("{\"role\":\"admin\"}"), "role"))
        .isEqualTo("role must be \"operator\" or \"account\"");
    assertThat(assertInvalidField(create("{\"role\":\"account\"}"), "accountId"))
        .isEqualTo("accountId is required for an account key");
    assertThat(
            assertInvalidField(
                create("{\"role\":\"operator\",\"accountId\":\"acc-1\"}"), "accountId"))
        .isEqualTo("an operator key reaches every account; leave accountId out");
    assertInvalidField(create("{\"role\":\"account\",\"accountId\":\"acc#1\"}"), "accountId");
    assertInvalidField(create("{\"role\":\"operator\",\"label\":\"<script>\"}"), "label");
    assertInvalidField(create("{\"role\":\"operator\",\"secret\":\"mine\"}"), "secret");
    assertThat(API.stack().apiKeys.list())
        .allMatch(
            k ->
                k.createdBy().equals("test-setup")
                    || k.createdBy().equals(API.operatorPrincipal()));
  }

  @Test
  void anUnknownKeyIsA404() {
    assertProblem(API.request("/v1/api-keys/0123456789abcdef/revoke").post(Entity.json("")), 404);
    assertProblem(API.get("/v1/api-keys/0123456789abcdef"), 404);
    assertProblem(API.get("/v1/api-keys/not-a-key-id"), 404);
  }
}
