package dev.billing.api.auth;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.newAccount;
import static dev.billing.api.support.ApiRequests.subscriptionBody;
import static dev.billing.api.support.ApiRequests.subscriptionPath;
import static dev.billing.api.support.ApiRequests.subscriptionsPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.billing.api.errors.ApiProblem;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.workflows.CancelRequest;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bearer JWTs of an OIDC issuer whose JWKS a local stub serves (no network), on the resources. The
 * actor the workflow records for a JWT is JwtEndToEndTest's.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JwtAccessTest {

  static final JwtTokens ISSUER = new JwtTokens("key-1");
  static final WireMockServer JWKS = startJwks();

  static final ResourceTestSupport API =
      ResourceTestSupport.start(
          config ->
              config.auth =
                  new AuthSettings(
                      null,
                      new JwtSettings(
                          JwtTokens.ISSUER,
                          JwtTokens.AUDIENCE,
                          "http://localhost:" + JWKS.port() + "/jwks.json",
                          null,
                          null,
                          null)));

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

  private static String operatorToken(String subject) {
    return ISSUER.sign(JwtTokens.claims(subject, Map.of("billing_role", "operator")).build());
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
  void anOperatorTokenReachesOperatorEndpoints() {
    assertThat(
            status(
                API.requestAs(operatorToken("ops-1"), "/v1/billing/due-payments?date=2026-04-01")
                    .get()))
        .isEqualTo(200);
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

    // The workflow records whom the request names: JwtEndToEndTest reads it in the history.
    assertThat(API.stack().workflows.sentTo(id))
        .singleElement()
        .satisfies(
            sent ->
                assertThat(((CancelRequest) sent.request()).requestedBy())
                    .isEqualTo("jwt:auth0|user-42"));
    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));
    assertThat(history.get("items").get(0).get("actor").asText()).isEqualTo("jwt:auth0|user-42");
    assertProblem(API.requestAs(token, subscriptionsPath(newAccount())).get(), 404);
    assertProblem(API.requestAs(token, "/v1/billing/due-payments?date=2026-04-01").get(), 403);
  }

  @Test
  void tokensThatAreNotForUsAreRefused() {
    String account = newAccount();
    Instant past = Instant.now().minusSeconds(3600);
    JwtTokens impostor = new JwtTokens("key-1");
    JwtTokens unknownKey = new JwtTokens("key-unknown");
    Map<String, Object> operator = Map.of("billing_role", "operator");

    List<String> refused =
        List.of(
            ISSUER.sign(JwtTokens.claims("a", operator).expirationTime(Date.from(past)).build()),
            ISSUER.sign(JwtTokens.claims("a", operator).audience("someone-else").build()),
            ISSUER.sign(JwtTokens.claims("a", operator).issuer("https://evil.test/").build()),
            ISSUER.sign(JwtTokens.claims("a", Map.of()).build()),
            ISSUER.sign(JwtTokens.claims("a", Map.of("billing_role", "admin")).build()),
            ISSUER.sign(JwtTokens.claims("a", Map.of("billing_role", "account")).build()),
            ISSUER.sign(
                JwtTokens.claims("a", Map.of("billing_role", "account", "billing_account", "acc#1"))
                    .build()),
            ISSUER.sign(
                new JWTClaimsSet.Builder(JwtTokens.claims("a", operator).build())
                    .subject(null)
                    .build()),
            ISSUER.sign(JwtTokens.claims("a b", operator).build()),
            impostor.sign(JwtTokens.claims("a", operator).build()),
            unknownKey.sign(JwtTokens.claims("a", operator).build()),
            JwtTokens.unsigned(JwtTokens.claims("a", operator).build()),
            ISSUER.hmacSignedWithPublicKey(JwtTokens.claims("a", operator).build()),
            "eyJhbGciOiJSUzI1NiJ9.not-base64!.x");

    for (String token : refused) {
      Response response = API.requestAs(token, subscriptionsPath(account)).get();
      assertProblem(response, 401);
    }
  }

  @Test
  void anIssuerWhoseKeysCannotBeFetchedIsA503NotA401() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    JwtAuthenticator unreachable =
        new JwtAuthenticator(
            new JwtSettings(
                JwtTokens.ISSUER,
                JwtTokens.AUDIENCE,
                "http://localhost:" + closedPort + "/jwks.json",
                null,
                null,
                null));

    assertThatThrownBy(() -> unreachable.authenticate(operatorToken("a")))
        .isInstanceOfSatisfying(
            ApiProblem.class, problem -> assertThat(problem.status()).isEqualTo(503));
  }

  @Test
  void symmetricAlgorithmsCannotBeConfigured() {
    assertThatThrownBy(
            () ->
                new JwtSettings(
                    JwtTokens.ISSUER,
                    JwtTokens.AUDIENCE,
                    "https://issuer.test/jwks.json",
                    null,
                    null,
                    List.of("HS256")))
        .hasMessageContaining("HS256 is not accepted");
    assertThatThrownBy(
            () ->
                new JwtSettings(
                    JwtTokens.ISSUER,
                    JwtTokens.AUDIENCE,
                    "http://issuer.test/jwks.json",
                    null,
                    null,
                    null))
        .hasMessageContaining("https");
  }
}
