package dev.billing.api.auth.keys;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionsPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** /v1/api-keys: operators create, list and revoke keys; a token is shown once, a hash never. */
class ApiKeyResourceTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension
  static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

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

    Response response = create("{\"role\":\"account\",\"accountId\":\"" + account + "\",\"label\":\"mobile app\"}");
    JsonNode created = body(response);

    assertThat(response.getStatus()).isEqualTo(201);
    assertThat(response.getHeaderString("Cache-Control")).contains("no-store");
    String keyId = created.get("keyId").asText();
    assertThat(response.getLocation().getPath()).isEqualTo("/v1/api-keys/" + keyId);
    assertThat(created.get("apiKey").asText()).matches("bk_" + keyId + "_[0-9a-f]{64}");
    assertThat(created.get("role").asText()).isEqualTo("account");
    assertThat(created.get("accountId").asText()).isEqualTo(account);
    assertThat(created.get("createdBy").asText()).isEqualTo(API.operatorPrincipal());
    assertThat(status(API.requestAs(created.get("apiKey").asText(), subscriptionsPath(account)).get()))
        .isEqualTo(200);

    String listing = API.get("/v1/api-keys").readEntity(String.class);
    String one = API.get("/v1/api-keys/" + keyId).readEntity(String.class);
    String stored = API.stack().apiKeys.find(keyId).orElseThrow().hash();
    for (String text : new String[] {listing, one}) {
      assertThat(text).contains(keyId).doesNotContain(created.get("apiKey").asText().substring(20))
          .doesNotContain(stored).doesNotContain("apiKey");
    }
    assertThat(ApiKeyTokens.matches(ApiKeyTokens.parse(created.get("apiKey").asText()).orElseThrow(), stored)).isTrue();
  }

  @Test
  void aRevokedKeyStopsWorkingAtOnceOnThisInstance() {
    String account = newAccount();
    JsonNode created = body(create("{\"role\":\"account\",\"accountId\":\"" + account + "\"}"));
    String token = created.get("apiKey").asText();
    String keyId = created.get("keyId").asText();
    assertThat(status(API.requestAs(token, subscriptionsPath(account)).get())).isEqualTo(200); // now cached

    JsonNode revoked = body(API.request("/v1/api-keys/" + keyId + "/revoke").post(Entity.json("")));
    JsonNode again = body(API.request("/v1/api-keys/" + keyId + "/revoke").post(Entity.json("")));

    assertThat(revoked.get("revokedBy").asText()).isEqualTo(API.operatorPrincipal());
    assertThat(again).isEqualTo(revoked);
    assertProblem(API.requestAs(token, subscriptionsPath(account)).get(), 401);
    JsonNode listed = StreamSupport.stream(body(API.get("/v1/api-keys")).get("items").spliterator(), false)
        .filter(k -> k.get("keyId").asText().equals(keyId)).findFirst().orElseThrow();
    assertThat(listed.get("revokedAt").asText()).isEqualTo(revoked.get("revokedAt").asText());
  }

  @Test
  void anInvalidRequestNamesTheField() {
    assertThat(assertInvalidField(create("{\"role\":\"admin\"}"), "role"))
        .isEqualTo("role must be \"operator\" or \"account\"");
    assertThat(assertInvalidField(create("{\"role\":\"account\"}"), "accountId"))
        .isEqualTo("accountId is required for an account key");
    assertThat(assertInvalidField(create("{\"role\":\"operator\",\"accountId\":\"acc-1\"}"), "accountId"))
        .isEqualTo("an operator key reaches every account; leave accountId out");
    assertInvalidField(create("{\"role\":\"account\",\"accountId\":\"acc#1\"}"), "accountId");
    assertInvalidField(create("{\"role\":\"operator\",\"label\":\"<script>\"}"), "label");
    assertInvalidField(create("{\"role\":\"operator\",\"secret\":\"mine\"}"), "secret");
    assertThat(API.stack().apiKeys.list()).allMatch(k -> k.createdBy().equals("test-setup")
        || k.createdBy().equals(API.operatorPrincipal()));
  }

  @Test
  void noTokenEverReachesTheLogs() {
    // Every server-side logger at every level while keys are created, used, mistyped and revoked.
    List<String> serverLoggers = List.of("dev.billing", "io.dropwizard", "org.eclipse.jetty",
        "org.glassfish.jersey", "com.github.benmanes");
    Map<Logger, Level> levels = new LinkedHashMap<>();
    for (String name : serverLoggers) {
      Logger logger = (Logger) LoggerFactory.getLogger(name);
      levels.put(logger, logger.getLevel());
      logger.setLevel(Level.ALL);
    }
    ListAppender<ILoggingEvent> events = new ListAppender<>();
    events.start();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(events);
    String token;
    try {
      String account = newAccount();
      token = body(create("{\"role\":\"account\",\"accountId\":\"" + account + "\"}")).get("apiKey").asText();
      status(API.requestAs(token, subscriptionsPath(account)).get());
      status(API.requestAs(token.substring(0, token.length() - 1) + "0", subscriptionsPath(account)).get());
      status(API.request("/v1/api-keys/" + token.substring(3, 19) + "/revoke").post(Entity.json("")));
      status(API.requestAs(token, subscriptionsPath(account)).get());
    } finally {
      root.detachAppender(events);
      events.stop();
      levels.forEach(Logger::setLevel);
    }
    String secret = token.substring(20);
    // Worker and server threads may still be inside doAppend; it holds the appender's lock.
    List<ILoggingEvent> captured;
    synchronized (events) {
      captured = List.copyOf(events.list);
    }
    List<ILoggingEvent> server = captured.stream()
        .filter(e -> serverLoggers.stream().anyMatch(e.getLoggerName()::startsWith)).toList();
    assertThat(server).hasSizeGreaterThan(10);
    assertThat(server).noneSatisfy(event -> assertThat(event.getFormattedMessage()
        + (event.getThrowableProxy() == null ? "" : event.getThrowableProxy().getMessage())).contains(secret));
    assertThat(server).anySatisfy(event ->
        assertThat(event.getFormattedMessage()).contains("API key " + token.substring(3, 19) + " revoked by"));
  }

  @Test
  void anUnknownKeyIsA404() {
    assertProblem(API.request("/v1/api-keys/0123456789abcdef/revoke").post(Entity.json("")), 404);
    assertProblem(API.get("/v1/api-keys/0123456789abcdef"), 404);
    assertProblem(API.get("/v1/api-keys/not-a-key-id"), 404);
  }
}
