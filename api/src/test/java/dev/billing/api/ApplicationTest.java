package dev.billing.api;

import static dev.billing.api.support.ApiTestSupport.assertInvalidField;
import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static dev.billing.api.support.ApiTestSupport.subscriptionsPath;
import static dev.billing.api.support.ApiTestSupport.with;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.input.StrictJsonBodies;
import dev.billing.api.subscriptions.SubscriptionIds;
import dev.billing.api.support.ApiTestSupport;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * The whole application on Jetty and the real stack, for what its resources alone do not show: the
 * error shape whatever the YAML says, the admin port, the actor the workflow records for a change,
 * no credential in any server log. The rules themselves are tested on the resources (BadInputTest,
 * AccessTest).
 */
@Tag("e2e")
class ApplicationTest {

  // Dropwizard's default mappers switched on in YAML: the API must still answer with its own shape.
  static final ApiTestSupport API =
      ApiTestSupport.onSharedStack(
          ConfigOverride.config("server.registerDefaultExceptionMappers", "true"));

  @RegisterExtension static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  @Test
  void everyErrorIsAProblemEvenWithDropwizardsDefaultMappersSwitchedOn() {
    String account = newAccount();

    assertThat(
            assertInvalidField(
                API.createSubscription(account, with(subscriptionBody(), "billingDay", 0), "bad"),
                "billingDay"))
        .isEqualTo("billingDay must be between 1 and 31");
    assertThat(
            assertProblem(
                    API.postJson(subscriptionsPath(account), "{\"sku\": \"pro\", ", "malformed"),
                    400)
                .get("type")
                .asText())
        .isEqualTo("https://billing.dev/problems/malformed-json");
    assertThat(assertProblem(API.get("/v1/nothing-here"), 404).get("type").asText())
        .isEqualTo("https://billing.dev/problems/not-found");
    Response notAllowed = API.request(subscriptionsPath(account)).delete();
    assertProblem(notAllowed, 405);
    assertThat(notAllowed.getHeaderString("Allow")).contains("GET").contains("POST");
    assertProblem(
        API.request(subscriptionsPath(account))
            .post(Entity.entity("sku=pro", MediaType.TEXT_PLAIN_TYPE)),
        415);
    Response failure = API.get("/test/failure");
    String text = failure.readEntity(String.class);
    assertThat(failure.getStatus()).isEqualTo(500);
    assertThat(ApiTestSupport.parse(text).get("type").asText())
        .isEqualTo("https://billing.dev/problems/internal-error");
    assertThat(text)
        .doesNotContain("db-7")
        .doesNotContain("IllegalStateException")
        .doesNotContain("at dev.");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "bad"));
  }

  @Test
  void aBodyOverTheLimitIsA413OverHttp() {
    String account = newAccount();
    String json = "{\"sku\":\"" + "x".repeat(StrictJsonBodies.MAX_BODY_BYTES) + "\"}";

    JsonNode problem = assertProblem(API.postJson(subscriptionsPath(account), json, "huge"), 413);

    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/payload-too-large");
    API.assertNothingWritten(account, SubscriptionIds.fromIdempotencyKey(account, "huge"));
  }

  @Test
  void theActorInTheHistoryIsTheKeyThatActed() {
    String account = newAccount();
    var created = API.newKey("account", account);
    String keyId = created.key().keyId();
    String id =
        body(API.requestAs(created.token(), subscriptionsPath(account))
                .post(Entity.json(subscriptionBody())))
            .get("subscriptionId")
            .asText();

    Response cancelled =
        API.requestAs(created.token(), subscriptionPath(account, id) + "/cancel")
            .post(Entity.json("{\"reason\":\"moving away\"}"));
    JsonNode history = body(API.get(subscriptionPath(account, id) + "/history"));

    assertThat(status(cancelled)).isEqualTo(200);
    JsonNode cancel =
        StreamSupport.stream(history.get("items").spliterator(), false)
            .filter(e -> e.get("event").asText().equals("SUBSCRIPTION_CANCELLED"))
            .findFirst()
            .orElseThrow();
    assertThat(cancel.get("actor").asText()).isEqualTo("key:" + keyId);
    assertThat(history.toString()).doesNotContain(created.token().substring(20));
  }

  @Test
  void noTokenEverReachesTheLogs() {
    // Every server-side logger at every level while keys are created, used, mistyped and revoked.
    List<String> serverLoggers =
        List.of(
            "dev.billing",
            "io.dropwizard",
            "org.eclipse.jetty",
            "org.glassfish.jersey",
            "com.github.benmanes");
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
      token =
          body(API.request("/v1/api-keys")
                  .post(Entity.json("{\"role\":\"account\",\"accountId\":\"" + account + "\"}")))
              .get("apiKey")
              .asText();
      status(API.requestAs(token, subscriptionsPath(account)).get());
      status(
          API.requestAs(token.substring(0, token.length() - 1) + "0", subscriptionsPath(account))
              .get());
      status(
          API.request("/v1/api-keys/" + token.substring(3, 19) + "/revoke").post(Entity.json("")));
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
    List<ILoggingEvent> server =
        captured.stream()
            .filter(e -> serverLoggers.stream().anyMatch(e.getLoggerName()::startsWith))
            .toList();
    assertThat(server).hasSizeGreaterThan(10);
    assertThat(server)
        .noneSatisfy(
            event ->
                assertThat(
                        event.getFormattedMessage()
                            + (event.getThrowableProxy() == null
                                ? ""
                                : event.getThrowableProxy().getMessage()))
                    .contains(secret));
    assertThat(server)
        .anySatisfy(
            event ->
                assertThat(event.getFormattedMessage())
                    .contains("API key " + token.substring(3, 19) + " revoked by"));
  }

  /** The status, with the connection given back to the pool. */
  private static int status(Response response) {
    try (response) {
      response.readEntity(String.class);
      return response.getStatus();
    }
  }

  @Test
  void healthChecksAreOpenOnTheAdminPortOnly() {
    Response admin =
        APP.client()
            .target("http://localhost:" + APP.getAdminPort() + "/healthcheck")
            .request()
            .get();
    Response application = API.requestAs(null, "/healthcheck").get();

    assertThat(admin.getStatus()).isEqualTo(200);
    assertThat(admin.readEntity(String.class)).contains("deadlocks");
    assertThat(status(application)).isEqualTo(404);
  }
}
