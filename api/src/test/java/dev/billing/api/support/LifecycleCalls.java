package dev.billing.api.support;

import static dev.billing.api.support.ApiRequests.body;
import static dev.billing.api.support.ApiRequests.subscriptionPath;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.activities.payments.sandbox.SandboxCharge;
import dev.billing.activities.payments.sandbox.SandboxRefund;
import dev.billing.domain.Money;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.StreamSupport;

/**
 * Helpers of the lifecycle tests: POSTs to one subscription's endpoints, the stack's clock moved to
 * a date (UTC), and what the gateway and the API recorded for one subscription.
 */
public final class LifecycleCalls {
  private final ApiRequests api;

  /** The real stack, for the gateway and the clock; null on fakes. */
  private final ApiTestStack stack;

  public LifecycleCalls(ApiTestSupport api) {
    this.api = api;
    this.stack = api.stack();
  }

  /** The calls only: the gateway and the clock are the real stack's. */
  public LifecycleCalls(ApiRequests api) {
    this.api = api;
    this.stack = null;
  }

  /** POST .../{subscriptionId}/{action} with a JSON body (null: no body at all). */
  public Response post(String account, String id, String action, String json) {
    var request = api.request(subscriptionPath(account, id) + "/" + action);
    return json == null
        ? request.post(null)
        : request.post(Entity.entity(json, MediaType.APPLICATION_JSON_TYPE));
  }

  /** POST that must answer 200; returns the subscription it answered with. */
  public JsonNode ok(String account, String id, String action, String json) {
    Response response = post(account, id, action, json);
    JsonNode answer = body(response);
    org.assertj.core.api.Assertions.assertThat(response.getStatus())
        .as("POST %s %s -> %s", action, json, answer)
        .isEqualTo(200);
    return answer;
  }

  public JsonNode subscription(String account, String id) {
    return body(api.get(subscriptionPath(account, id)));
  }

  /** The periods by cycle. */
  public TreeMap<Long, JsonNode> periods(String account, String id) {
    TreeMap<Long, JsonNode> byCycle = new TreeMap<>();
    body(api.get(subscriptionPath(account, id) + "/periods?limit=200"))
        .get("items")
        .forEach(p -> byCycle.put(p.get("cycle").asLong(), p));
    return byCycle;
  }

  /** "event process cycle" of every history entry, oldest first. */
  public List<String> history(String account, String id) {
    JsonNode items =
        body(api.get(subscriptionPath(account, id) + "/history?limit=200")).get("items");
    return StreamSupport.stream(items.spliterator(), false)
        .map(
            e ->
                e.get("event").asText()
                    + " "
                    + e.get("process").asText()
                    + " "
                    + e.get("cycle").asLong())
        .toList();
  }

  /** The cycles of the history entries with this event. */
  public List<Long> cyclesOf(String account, String id, String event) {
    JsonNode items =
        body(api.get(subscriptionPath(account, id) + "/history?limit=200")).get("items");
    return StreamSupport.stream(items.spliterator(), false)
        .filter(e -> event.equals(e.get("event").asText()))
        .map(e -> e.get("cycle").asLong())
        .toList();
  }

  /** Every charge the sandbox made for this subscription, in order. */
  public List<SandboxCharge> charges(String id) {
    return stack.gateway.charges().stream()
        .filter(c -> id.equals(c.subscriptionId()) || c.idempotencyKey().contains(":" + id + ":"))
        .toList();
  }

  public List<SandboxCharge> succeeded(String id) {
    return charges(id).stream()
        .filter(c -> c.outcome() == SandboxCharge.Outcome.SUCCEEDED)
        .toList();
  }

  /** Every refund the sandbox made of this subscription's charges. */
  public List<SandboxRefund> refunds(String id) {
    Set<String> transactions = new java.util.HashSet<>();
    charges(id).forEach(c -> transactions.add(c.transactionId()));
    List<SandboxRefund> refunds = new ArrayList<>();
    stack.gateway.refunds().stream()
        .filter(r -> transactions.contains(r.transactionId()))
        .forEach(refunds::add);
    return refunds;
  }

  public static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  public LocalDate today() {
    return LocalDate.ofInstant(stack.clock.instant(), ZoneOffset.UTC);
  }

  /** Moves workflow time to the start of {@code date} (UTC), firing every timer due on the way. */
  public void sleepUntil(LocalDate date) {
    sleepUntil(date.atStartOfDay(ZoneOffset.UTC).toInstant());
  }

  public void sleepUntil(Instant target) {
    Duration left = Duration.between(stack.clock.instant(), target);
    org.assertj.core.api.Assertions.assertThat(left)
        .as("the shared clock is already past %s: tests of this class run in date order", target)
        .isPositive();
    stack.env.sleep(left);
  }
}
