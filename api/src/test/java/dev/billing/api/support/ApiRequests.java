package dev.billing.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.store.BillingStore;
import dev.billing.store.PageRequest;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What every API test shares, whatever serves the API: HTTP helpers that send the operator key,
 * request bodies and problem assertions. {@link ApiTestSupport} serves the API from the whole
 * application on the real stack; {@link ResourceTestSupport} from its resources on fakes.
 */
public abstract class ApiRequests {
  public static final ObjectMapper JSON = new ObjectMapper();
  public static final String PROBLEM_JSON = "application/problem+json";

  private final ApiKeyService keyService;
  private final BillingStore store;

  /** Every request of the helpers below carries this operator key unless it says otherwise. */
  private final String operatorKey;

  ApiRequests(ApiKeyService keyService, BillingStore store) {
    this.keyService = keyService;
    this.store = store;
    this.operatorKey = keyService.create("operator", null, "tests", "test-setup").token();
  }

  /** The API's root, e.g. http://localhost:port. */
  protected abstract WebTarget root();

  /** Whether a workflow was ever started for this subscription. */
  protected abstract boolean workflowExists(String subscriptionId);

  /** The operator key the helpers send. */
  public String operatorKey() {
    return operatorKey;
  }

  /** The actor the operator key's requests are recorded under: "key:<keyId>". */
  public String operatorPrincipal() {
    return "key:" + operatorKey.substring("bk_".length(), "bk_".length() + 16);
  }

  /** A new key of this role ("operator", "account"); the account only for account keys. */
  public ApiKeyService.Created newKey(String role, String accountId) {
    return keyService.create(role, accountId, null, "test-setup");
  }

  /** The token of a new key of {@code accountId}. */
  public String accountKey(String accountId) {
    return newKey("account", accountId).token();
  }

  /** A fresh account per test keeps tests independent on the shared stack. */
  public static String newAccount() {
    return "acc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  // ---- HTTP ----

  /**
   * A request to {@code path} as the operator; the path may carry a query ("?a=1&b=2"; values are
   * URL-encoded here).
   */
  public Invocation.Builder request(String pathAndQuery) {
    return requestAs(operatorKey, pathAndQuery);
  }

  /**
   * A request with {@code Authorization: Bearer <token>}, or without the header when token is null.
   */
  public Invocation.Builder requestAs(String token, String pathAndQuery) {
    Invocation.Builder request = unauthenticated(pathAndQuery);
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  private Invocation.Builder unauthenticated(String pathAndQuery) {
    int q = pathAndQuery.indexOf('?');
    WebTarget target = root().path(q < 0 ? pathAndQuery : pathAndQuery.substring(0, q));
    if (q >= 0) {
      for (String pair : pathAndQuery.substring(q + 1).split("&")) {
        int eq = pair.indexOf('=');
        target =
            target.queryParam(
                pair.substring(0, eq),
                URLEncoder.encode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return target.request();
  }

  public Response get(String path) {
    return request(path).get();
  }

  public Response postJson(String path, Object body, String idempotencyKey) {
    Invocation.Builder request = request(path);
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    String json = body instanceof String s ? s : write(body);
    return request.post(Entity.entity(json, MediaType.APPLICATION_JSON_TYPE));
  }

  public Response createSubscription(String accountId, Map<String, Object> body, String key) {
    return postJson(subscriptionsPath(accountId), body, key);
  }

  /** Creates and returns the 201 body; fails the test on any other answer. */
  public JsonNode created(String accountId, Map<String, Object> body) {
    Response response = createSubscription(accountId, body, null);
    JsonNode json = body(response);
    assertThat(response.getStatus()).as("create: %s", json).isEqualTo(201);
    return json;
  }

  public static String subscriptionsPath(String accountId) {
    return "/v1/accounts/" + accountId + "/subscriptions";
  }

  public static String subscriptionPath(String accountId, String subscriptionId) {
    return subscriptionsPath(accountId) + "/" + subscriptionId;
  }

  public static JsonNode body(Response response) {
    return parse(response.readEntity(String.class));
  }

  public static JsonNode parse(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException("not JSON: " + text, e);
    }
  }

  private static String write(Object body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- bodies ----

  /** A valid create body with every field explicit; tests override what they exercise. */
  public static Map<String, Object> subscriptionBody() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("sku", "pro-monthly");
    body.put("amount", "9.99");
    body.put("currency", "USD");
    body.put("email", "ana@example.com");
    body.put("paymentMethod", "pm_card_visa");
    body.put("term", "MONTHLY");
    body.put("billingDay", 20);
    body.put("startDate", "2026-03-20");
    body.put("timeZone", "UTC");
    body.put("reminderDaysBefore", 3);
    return body;
  }

  public static Map<String, Object> with(Map<String, Object> body, String field, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(body);
    copy.put(field, value);
    return copy;
  }

  public static Map<String, Object> without(Map<String, Object> body, String field) {
    Map<String, Object> copy = new LinkedHashMap<>(body);
    copy.remove(field);
    return copy;
  }

  // ---- assertions ----

  /** Asserts a problem+json answer with this status and returns its body. */
  public static JsonNode assertProblem(Response response, int status) {
    assertThat(response.getStatus()).isEqualTo(status);
    assertThat(response.getMediaType()).isNotNull();
    assertThat(response.getMediaType().toString()).isEqualTo(PROBLEM_JSON);
    JsonNode problem = body(response);
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("type").asText()).startsWith("https://billing.dev/problems/");
    assertThat(problem.get("title").asText()).isNotBlank();
    assertThat(problem.get("detail").asText()).isNotBlank();
    assertThat(problem.get("errors").isArray()).isTrue();
    return problem;
  }

  /** Asserts a 400 naming exactly this field, and returns the message given for it. */
  public static String assertInvalidField(Response response, String field) {
    JsonNode problem = assertProblem(response, 400);
    assertThat(problem.get("type").asText())
        .isEqualTo("https://billing.dev/problems/invalid-request");
    assertThat(problem.get("errors")).as("errors of %s", problem).hasSize(1);
    JsonNode error = problem.get("errors").get(0);
    assertThat(error.get("field").asText()).isEqualTo(field);
    return error.get("message").asText();
  }

  /** Nothing was written for this subscription id: not in the store, no workflow, account empty. */
  public void assertNothingWritten(String accountId, String subscriptionId) {
    assertThat(store.getSubscription(accountId, subscriptionId)).isEmpty();
    assertThat(store.getSubscriptionsByAccount(accountId, PageRequest.first(10)).items()).isEmpty();
    assertThat(workflowExists(subscriptionId)).as("a workflow for %s", subscriptionId).isFalse();
  }
}
