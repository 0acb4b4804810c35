package dev.billing.api.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.fuzz.Baselines.Fixture;
import dev.billing.api.fuzz.Endpoints.Endpoint;
import dev.billing.api.fuzz.FuzzRequest.Caller;
import dev.billing.api.fuzz.FuzzRequest.Credential;
import dev.billing.api.fuzz.FuzzRequest.Kind;
import dev.billing.api.fuzz.FuzzRequest.Mutation;
import dev.billing.api.support.ApiRequests;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.StreamSupport;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Malformed, boundary and hostile requests at every endpoint of the running API (found in Jersey's
 * resource model, so new endpoints are included without listing them), each a valid request with
 * one thing changed, from one of five callers. For every answer:
 *
 * <ul>
 *   <li>never a 5xx;
 *   <li>every error is the one problem+json shape, and a 400 names the input it is about;
 *   <li>the caller's rights hold: no credential is a 401, another account a 404, an operator path a
 *       403 for an account key;
 *   <li>a rejected request writes nothing (no DynamoDB write takes effect while it is handled);
 *   <li>a body carrying a card number or IBAN is rejected, and no answer echoes one from a body.
 * </ul>
 *
 * {@link HostileInputTest} sends thousands to the application on fakes of Temporal; {@link
 * HostileInputEndToEndTest} fewer to it on the real stack, where accepted requests reach the
 * workflows.
 */
final class Fuzzing {

  /** What the fuzzing runs against: the application on a stack, and how to tell it is at rest. */
  interface Served {
    ApiRequests api();

    DropwizardAppExtension<ApiConfiguration> app();

    /** DynamoDB writes that took effect, by anyone. */
    AtomicLong writes();

    BillingStore store();

    /**
     * Waits until what an accepted request set off (workflows, reconciliations) has finished and
     * stopped writing, so that a write it causes later is never blamed on the next request.
     */
    void awaitAtRest(HttpResponse<String> response) throws Exception;
  }

  static final String WEBHOOK_SECRET = "whsec_fuzz_webhook_secret";

  /** Both webhook endpoints exist, so they are fuzzed too (without valid signatures). */
  static final ConfigOverride[] WEBHOOKS = {
    ConfigOverride.config("webhooks.sandboxSecret", WEBHOOK_SECRET),
    ConfigOverride.config("webhooks.stripeSecret", WEBHOOK_SECRET)
  };

  static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> OTHER_METHODS =
      List.of("GET", "POST", "PUT", "DELETE", "PATCH");

  private static Served served;
  private static ApiRequests api;
  private static DropwizardAppExtension<ApiConfiguration> app;
  private static List<Endpoint> endpoints;
  private static Set<Endpoint> baselineAccepted;
  private static final Map<String, Integer> HITS = new ConcurrentHashMap<>();
  private static final Map<Integer, Integer> STATUSES = new ConcurrentHashMap<>();
  private static int tries;

  private Fuzzing() {}

  private static String base;
  private static String previous;
  private static Fixture fixture;
  private static FuzzClient client;
  private static List<String> pageTokens;

  /**
   * Starts the application (its stack is started) and finds its endpoints; {@code tries} will be
   * sent.
   */
  static void start(Served on, int triesToSend) throws Exception {
    served = on;
    api = on.api();
    app = on.app();
    tries = triesToSend;
    HITS.clear();
    STATUSES.clear();
    previous = null;
    app.before();
    base = "http://localhost:" + app.getLocalPort();
    endpoints = Endpoints.of(app.getEnvironment().jersey().getResourceConfig(), Set.of("/test/"));

    String account = "fuzz-acc";
    String other = "fuzz-other";
    client =
        new FuzzClient(base, api.operatorKey(), api.accountKey(account), api.accountKey(other));
    String throwaway = api.newKey("account", other).key().keyId();
    fixture = new Fixture(account, newSubscription(account), throwaway, other);
    pageTokens = pageTokens(other);

    baselineAccepted = ConcurrentHashMap.newKeySet();
    for (Endpoint endpoint : endpoints) {
      // A valid request answered without a 400 (a probe subscription keeps the fixture's intact).
      Fixture probe = new Fixture(account, newSubscription(account), throwaway, other);
      HttpResponse<String> answer =
          client.send(endpoint, new Credential(Caller.OPERATOR, null), Mutation.NONE, probe);
      if (answer.statusCode() != 400) {
        baselineAccepted.add(endpoint);
      }
      served.awaitAtRest(answer);
    }
  }

  /**
   * Checks that the run covered what it should, then stops the application.
   *
   * @param statuses the statuses the run must have produced (accepted requests and refusals)
   */
  static void stop(Integer... statuses) {
    try {
      // Every endpoint was exercised: a discovery or generation fault would otherwise pass
      // silently.
      assertThat(endpoints).hasSizeGreaterThanOrEqualTo(12);
      for (Endpoint endpoint : endpoints) {
        assertThat(HITS.getOrDefault(endpoint.toString(), 0))
            .as("requests to %s", endpoint)
            .isGreaterThanOrEqualTo(tries / 125);
      }
      assertThat(STATUSES.keySet()).as("statuses seen: %s", STATUSES).contains(statuses);
      assertThat(STATUSES.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(tries);
      System.out.println("Hostile input statuses: " + new java.util.TreeMap<>(STATUSES));
      endpoints.forEach(
          e ->
              System.out.println(
                  "  "
                      + e
                      + ": "
                      + HITS.get(e.toString())
                      + " requests"
                      + (baselineAccepted.contains(e)
                          ? ""
                          : " (no known-valid request: 400s need only name something)")));
    } finally {
      app.after();
    }
  }

  /** Sends one request and checks its answer. */
  static void check(FuzzRequest request) throws Exception {
    HITS.merge(request.endpoint().toString(), 1, Integer::sum);
    long writesBefore = served.writes().get();
    String body = FuzzClient.renderBody(request.endpoint(), request.mutation(), fixture);

    HttpResponse<String> response;
    try {
      response = client.send(request.endpoint(), request.credential(), request.mutation(), fixture);
    } catch (IOException e) {
      throw new AssertionError("no answer to " + request + " (previous: " + previous + ")", e);
    }
    previous = request + " -> " + response.statusCode() + " " + response.headers().map();
    int status = response.statusCode();
    STATUSES.merge(status, 1, Integer::sum);

    assertThat(status)
        .as("%s answered %s", request, FuzzRequest.abbreviate(response.body(), 600))
        .isLessThan(500);
    if (status >= 400) {
      assertThat(served.writes().get())
          .as("rejected %s but something was written", request)
          .isEqualTo(writesBefore);
      if (!"HEAD".equals(method(request))) {
        assertProblem(request, response);
      }
    }
    assertCallerRights(request, status, response.body());
    if (body != null && HostileValues.PAYMENT_NUMBERS.stream().anyMatch(body::contains)) {
      assertThat(status).as("%s carried a payment number", request).isGreaterThanOrEqualTo(400);
    }
    if (body != null && request.mutation().kind().name().contains("BODY")) {
      // Values from a body are never echoed (path ids may be: the caller put them in the URL).
      for (String number : HostileValues.PAYMENT_NUMBERS) {
        assertThat(response.body()).as("answer to %s", request).doesNotContain(number);
      }
    }
    assertThat(response.body()).doesNotContain(api.operatorKey().substring(20));
    if (status < 300 && !"GET".equals(method(request))) {
      served.awaitAtRest(response);
      replaceTheFixtureSubscriptionIfItEnded();
    }
  }

  /**
   * Waits (bounded) until an accepted change has stopped writing, so that a write it causes later
   * is never blamed on the next request.
   */
  static void settle(Duration quiet) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    long seen = served.writes().get();
    while (System.nanoTime() < deadline) {
      Thread.sleep(quiet.toMillis());
      long now = served.writes().get();
      if (now == seen) {
        return;
      }
      seen = now;
    }
  }

  // ---- what a response must be ----

  private static void assertProblem(FuzzRequest request, HttpResponse<String> response)
      throws IOException {
    String type = response.headers().firstValue("Content-Type").orElse("");
    assertThat(type).as("content type of %s", request).startsWith("application/problem+json");
    JsonNode problem = JSON.readTree(response.body());
    assertThat(problem.get("status").asInt()).isEqualTo(response.statusCode());
    assertThat(problem.get("type").asText()).startsWith("https://billing.dev/problems/");
    assertThat(problem.get("title").asText()).isNotBlank();
    assertThat(problem.get("detail").asText()).isNotBlank();
    assertThat(problem.get("errors").isArray()).isTrue();
    if (response.statusCode() != 400) {
      return;
    }
    List<JsonNode> errors =
        StreamSupport.stream(problem.get("errors").spliterator(), false).toList();
    assertThat(errors).as("errors of %s: %s", request, problem).isNotEmpty();
    errors.forEach(error -> assertThat(error.get("message").asText()).isNotBlank());
    List<String> named =
        errors.stream()
            .map(
                e ->
                    e.get("field") == null || e.get("field").isNull()
                        ? null
                        : e.get("field").asText())
            .toList();
    // The name as it arrived: UTF-8 turns a lone surrogate into '?'.
    Mutation sent = request.mutation();
    Mutation mutation =
        new Mutation(
            sent.kind(),
            sent.name() == null
                ? null
                : new String(sent.name().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8),
            sent.value());
    Endpoint endpoint = request.endpoint();
    if (!baselineAccepted.contains(endpoint)) {
      return; // a valid request to it is not known: it is enough that errors are given
    }
    switch (mutation.kind()) {
      case PATH -> {
        // Jetty refuses some request lines before any route is known (an encoded '/' or '.'
        // segment): those name the request line, not a parameter. An empty last segment routes to
        // the parent path (GET /v1/events/ is the list), whose own inputs a 400 then names.
        boolean parentRoute =
            mutation.value() != null
                && mutation.value().isEmpty()
                && endpoint.template().endsWith("/{" + mutation.name() + "}");
        if (!problem.get("type").asText().endsWith("/bad-request") && !parentRoute) {
          assertThat(named)
              .as("%s answered %s", request, FuzzRequest.abbreviate(problem.toString(), 600))
              .contains(mutation.name());
        }
      }
      case QUERY, HEADER ->
          assertThat(named)
              .as("%s answered %s", request, FuzzRequest.abbreviate(problem.toString(), 600))
              .contains(mutation.name());
      case BODY_FIELD, BODY_DUPLICATE ->
          assertThat(named)
              .as("%s answered %s", request, FuzzRequest.abbreviate(problem.toString(), 600))
              .anySatisfy(
                  field ->
                      assertThat(field)
                          .isNotNull()
                          .satisfiesAnyOf(
                              f -> assertThat(f).startsWith(mutation.name()),
                              f ->
                                  assertThat(Baselines.fieldNames(endpoint.bodyType()))
                                      .contains(rootOf(f))));
      case BODY_EXTRA ->
          assertThat(named)
              .as("%s answered %s", request, FuzzRequest.abbreviate(problem.toString(), 600))
              .anySatisfy(
                  field ->
                      assertThat(
                              field == null
                                  || field.startsWith(mutation.name())
                                  || Baselines.fieldNames(endpoint.bodyType())
                                      .contains(rootOf(field)))
                          .isTrue());
      default -> {} // the body as a whole, or the request line: any named error will do
    }
  }

  private static String rootOf(String path) {
    int end = path.length();
    for (char c : new char[] {'.', '['}) {
      int at = path.indexOf(c);
      if (at > 0 && at < end) {
        end = at;
      }
    }
    return path.substring(0, end);
  }

  /** The detail of the 404 an account credential gets for another account's path. */
  private static final String ACCESS_DENIED_AS_MISSING = "There is no resource at this path.";

  private static void assertCallerRights(FuzzRequest request, int status, String body) {
    Endpoint endpoint = request.endpoint();
    if (endpoint.isWebhook() || request.mutation().routingMayChange()) {
      return;
    }
    String why = request.toString();
    if (endpoint.isOpen()) {
      assertThat(status).as(why).isNotIn(401, 403);
      return;
    }
    if (endpoint.isAccountConfined()) {
      // Any account may ask; the resource answers with its own account's data or a 404.
      if (request.credential().caller() == Caller.NONE
          || request.credential().caller() == Caller.GARBAGE) {
        assertThat(status).as(why).isEqualTo(401);
      } else {
        assertThat(status).as(why).isNotIn(401, 403);
      }
      return;
    }
    switch (request.credential().caller()) {
      case NONE, GARBAGE -> assertThat(status).as(why).isEqualTo(401);
      case OTHER_ACCOUNT ->
          assertThat(status).as(why).isEqualTo(endpoint.isAccountScoped() ? 404 : 403);
      case OWN_ACCOUNT -> {
        if (endpoint.isAccountScoped()) {
          // Its own account: never refused as a stranger (a resource may still say "no such
          // period").
          assertThat(status).as(why).isNotEqualTo(401);
          if (status == 404) {
            assertThat(body).as(why).doesNotContain(ACCESS_DENIED_AS_MISSING);
          }
        } else {
          assertThat(status).as(why).isEqualTo(403);
        }
      }
      case OPERATOR -> assertThat(status).as(why).isNotIn(401, 403);
    }
  }

  // ---- generation ----

  /** Requests to the endpoints found, each a valid one with one thing changed. */
  static Arbitrary<FuzzRequest> requests() {
    Arbitrary<Credential> credentials =
        Arbitraries.frequencyOf(
            Tuple.of(60, Arbitraries.just(new Credential(Caller.OPERATOR, null))),
            Tuple.of(12, Arbitraries.just(new Credential(Caller.OWN_ACCOUNT, null))),
            Tuple.of(10, Arbitraries.just(new Credential(Caller.OTHER_ACCOUNT, null))),
            Tuple.of(6, Arbitraries.just(new Credential(Caller.NONE, null))),
            Tuple.of(
                12,
                Arbitraries.of(HostileValues.BAD_CREDENTIALS)
                    .map(h -> new Credential(Caller.GARBAGE, h))));
    return Arbitraries.of(endpoints)
        .withoutEdgeCases()
        .flatMap(
            endpoint ->
                Combinators.combine(credentials, mutations(endpoint))
                    .as((c, m) -> new FuzzRequest(endpoint, c, m)));
  }

  private static Arbitrary<Mutation> mutations(Endpoint endpoint) {
    List<Tuple.Tuple2<Integer, Arbitrary<Mutation>>> options = new ArrayList<>();
    options.add(Tuple.of(8, Arbitraries.just(Mutation.NONE)));
    options.add(
        Tuple.of(
            4,
            Arbitraries.of(OTHER_METHODS)
                .filter(m -> !m.equals(endpoint.method()))
                .map(m -> new Mutation(Kind.METHOD, m, null))));
    if (!endpoint.pathParams().isEmpty()) {
      options.add(
          Tuple.of(
              15,
              Combinators.combine(Arbitraries.of(endpoint.pathParams()), HostileValues.string())
                  .as((name, value) -> new Mutation(Kind.PATH, name, value))));
    }
    if (!endpoint.queryParams().isEmpty()) {
      options.add(
          Tuple.of(
              15,
              Arbitraries.of(endpoint.queryParams())
                  .flatMap(
                      name ->
                          queryValues(name)
                              .injectNull(0.1)
                              .map(value -> new Mutation(Kind.QUERY, name, value)))));
    }
    if (!endpoint.headerParams().isEmpty()) {
      options.add(
          Tuple.of(
              8,
              Combinators.combine(
                      Arbitraries.of(endpoint.headerParams()),
                      HostileValues.string().map(Fuzzing::headerSafe))
                  .as((name, value) -> new Mutation(Kind.HEADER, name, value))));
    }
    if (endpoint.hasBody()) {
      List<String> fields = Baselines.fieldNames(endpoint.bodyType());
      if (!fields.isEmpty()) {
        options.add(
            Tuple.of(
                25,
                Combinators.combine(
                        Arbitraries.of(fields), HostileValues.jsonValue().injectNull(0.1))
                    .as((name, value) -> new Mutation(Kind.BODY_FIELD, name, value))));
        options.add(
            Tuple.of(
                4,
                Combinators.combine(Arbitraries.of(fields), HostileValues.jsonValue())
                    .as((name, value) -> new Mutation(Kind.BODY_DUPLICATE, name, value))));
      }
      options.add(
          Tuple.of(
              5,
              Combinators.combine(HostileValues.string(), HostileValues.jsonValue())
                  .as((name, value) -> new Mutation(Kind.BODY_EXTRA, name, value))));
      options.add(
          Tuple.of(
              8,
              Arbitraries.of(HostileValues.BODIES)
                  .map(b -> new Mutation(Kind.WHOLE_BODY, null, b))));
      options.add(
          Tuple.of(
              4,
              Arbitraries.of(HostileValues.CONTENT_TYPES)
                  .map(type -> new Mutation(Kind.CONTENT_TYPE, type, null))));
    }
    return Arbitraries.frequencyOf(options);
  }

  private static Arbitrary<String> queryValues(String name) {
    return switch (name) {
      case "limit" ->
          Arbitraries.oneOf(Arbitraries.of(HostileValues.LIMITS), HostileValues.string());
      case "pageToken" -> Arbitraries.oneOf(Arbitraries.of(pageTokens), HostileValues.string());
      default -> HostileValues.string();
    };
  }

  /** What an HTTP client can put in a header at all (no control characters, ISO-8859-1). */
  private static String headerSafe(String value) {
    StringBuilder safe = new StringBuilder();
    value.chars().filter(c -> c >= 0x20 && c < 0x7F).forEach(c -> safe.append((char) c));
    return safe.toString().strip();
  }

  // ---- sending ----

  private static String method(FuzzRequest request) {
    return request.mutation().kind() == Kind.METHOD
        ? request.mutation().name()
        : request.endpoint().method();
  }

  // ---- fixture ----

  private static String newSubscription(String account) throws Exception {
    Map<String, Object> body = ApiRequests.subscriptionBody();
    JsonNode created = api.created(account, body);
    return created.get("subscriptionId").asText();
  }

  /** Page tokens a client might try: another list's, altered ones, and garbage in their shape. */
  private static List<String> pageTokens(String otherAccount) throws Exception {
    api.created(otherAccount, ApiRequests.subscriptionBody());
    api.created(otherAccount, ApiRequests.subscriptionBody());
    String token =
        ApiRequests.body(api.get(ApiRequests.subscriptionsPath(otherAccount) + "?limit=1"))
            .get("nextPageToken")
            .asText();
    int dot = token.indexOf('.');
    return List.of(
        token,
        flip(token, dot - 2),
        flip(token, dot + 2),
        flip(token, 3),
        token.substring(0, dot),
        token + "." + token,
        token.substring(0, token.length() - 1),
        "eyJxIjoieCIsImsiOnsiUEsiOiJBQ0MjeCJ9fQ.AAAA",
        "a".repeat(5000),
        ".",
        "..");
  }

  private static String flip(String token, int at) {
    char c = token.charAt(at);
    return token.substring(0, at) + (c == 'A' ? 'B' : 'A') + token.substring(at + 1);
  }

  /** A cancel, accepted, ends the fixture's subscription; later requests deserve a live one too. */
  private static void replaceTheFixtureSubscriptionIfItEnded() throws Exception {
    Subscription current =
        served.store().getSubscription(fixture.account(), fixture.subscriptionId()).orElseThrow();
    if (current.status().isTerminal()) {
      fixture =
          new Fixture(
              fixture.account(),
              newSubscription(fixture.account()),
              fixture.keyId(),
              fixture.otherAccount());
    }
  }
}
