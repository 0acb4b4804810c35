package dev.billing.api.auth;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static dev.billing.api.support.ApiTestSupport.subscriptionsPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A JWT-authenticated change on the real stack: the workflow records the token's subject as the
 * actor. Which tokens are accepted is JwtAccessTest's, on the resources.
 */
@Tag("e2e")
class JwtEndToEndTest {

  static final JwtTokens ISSUER = new JwtTokens("key-1");
  static final WireMockServer JWKS = startJwks();

  static final ApiTestSupport API =
      ApiTestSupport.onSharedStack(
          ConfigOverride.config("auth.jwt.issuer", JwtTokens.ISSUER),
          ConfigOverride.config("auth.jwt.audience", JwtTokens.AUDIENCE),
          ConfigOverride.config(
              "auth.jwt.jwksUrl", "http://localhost:" + JWKS.port() + "/jwks.json"));

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  private static WireMockServer startJwks() {
    WireMockServer server = new WireMockServer(options().dynamicPort());
    server.start();
    server.stubFor(get("/jwks.json").willReturn(okJson(ISSUER.jwks())));
    // One answer before the API's first fetch, which gives up after 2 s: a cold WireMock on a
    // loaded
    // machine can take that long, and a 503 here would say nothing about JWT access.
    try {
      HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(server.baseUrl() + "/jwks.json")).build(),
              HttpResponse.BodyHandlers.discarding());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("WireMock did not answer", e);
    }
    return server;
  }

  @AfterAll
  static void stopJwks() {
    JWKS.stop();
  }

  private static String accountToken(String subject, String account) {
    return ISSUER.sign(
        JwtTokens.claims(
                subject,
                Map.of("billing_role", List.of("viewer", "account"), "billing_account", account))
            .build());
  }

  private static int status(Response response) {
    try (response) {
      response.readEntity(String.class);
      return response.getStatus();
    }
  }

  @Test
  void anAccountTokenIsScopedToItsAccountAndRecordedAsItsSubject() {
    String account = newAccount();
    String token = accountToken("auth0|user-42", account);

    Response created =
        API.requestAs(token, subscriptionsPath(account)).post(Entity.json(subscriptionBody()));
    String id = body(created).get("subscriptionId").asText();
    assertThat(created.getStatus()).isEqualTo(201);
    assertThat(
            status(
                API.requestAs(token, subscriptionPath(account, id) + "/cancel")
                    .post(Entity.json("{}"))))
        .isEqualTo(200);

    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));
    JsonNode cancel =
        StreamSupport.stream(history.get("items").spliterator(), false)
            .filter(e -> e.get("event").asText().equals("SUBSCRIPTION_CANCELLED"))
            .findFirst()
            .orElseThrow();
    assertThat(cancel.get("actor").asText()).isEqualTo("jwt:auth0|user-42");
    assertProblem(API.requestAs(token, subscriptionsPath(newAccount())).get(), 404);
    assertProblem(API.requestAs(token, "/v1/billing/due-payments?date=2026-04-01").get(), 403);
  }
}
