package dev.billing.api.ops;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestStack;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.api.support.fakes.FakeReconciliations;
import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * /v1/ops/reconciliations on the resources: what a start refuses (and then starts nothing), and the
 * reports listed newest first, one page at a time, from the store on DynamoDB Local. What a run
 * does is ReconciliationEndpointsTest's.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ReconciliationRequestsTest {

  static final ResourceTestSupport API = ResourceTestSupport.start();

  @Test
  void aRunForOneSubscriptionNeedsBothIdsNoWindowAndAnExistingSubscription() {
    int started = API.stack().reconciliations.calls.size();
    String path = "/v1/ops/reconciliations";
    assertThat(
            assertInvalidField(
                API.postJson(path, Map.of("subscriptionId", "sub-1"), null), "accountId"))
        .isEqualTo("accountId must match ^[A-Za-z0-9_-]{1,64}$");
    assertInvalidField(API.postJson(path, Map.of("accountId", "acc-ops"), null), "subscriptionId");
    assertInvalidField(
        API.postJson(path, Map.of("accountId", "acc-ops", "subscriptionId", "a#b"), null),
        "subscriptionId");
    assertThat(
            assertInvalidField(
                API.postJson(
                    path,
                    Map.of("accountId", "acc-ops", "subscriptionId", "sub-1", "lookbackDays", 2),
                    null),
                "lookbackDays"))
        .isEqualTo("a run for one subscription has no window; leave lookbackDays out");
    assertThat(
            assertProblem(
                    API.postJson(
                        path, Map.of("accountId", "acc-ops", "subscriptionId", "sub-none"), null),
                    404)
                .get("detail")
                .asText())
        .isEqualTo("Account acc-ops has no subscription sub-none.");
    assertThat(API.stack().reconciliations.calls).as("runs started").hasSize(started);
  }

  @Test
  void badInputIsAProblemNamingTheFieldAndStartsNothing() {
    int started = API.stack().reconciliations.calls.size();
    assertThat(
            assertInvalidField(
                API.postJson("/v1/ops/reconciliations", Map.of("lookbackDays", 0), null),
                "lookbackDays"))
        .isEqualTo("lookbackDays must be between 1 and 30");
    assertThat(
            assertInvalidField(
                API.postJson("/v1/ops/reconciliations", Map.of("lookbackDays", 31), null),
                "lookbackDays"))
        .isEqualTo("lookbackDays must be between 1 and 30");
    assertInvalidField(
        API.postJson("/v1/ops/reconciliations", Map.of("lookbackDays", "3"), null), "lookbackDays");
    assertInvalidField(
        API.postJson("/v1/ops/reconciliations", Map.of("lookback", 3), null), "lookback");
    assertInvalidField(API.get("/v1/ops/reconciliations?limit=0"), "limit");
    assertProblem(API.get("/v1/ops/reconciliations/0b7c5c1e-0000-4000-8000-000000000000"), 404);
    // Every path id has one pattern, checked before any resource: 400 naming it.
    assertInvalidField(API.get("/v1/ops/reconciliations/not%23an%23id"), "id");
    assertThat(API.stack().reconciliations.calls).as("runs started").hasSize(started);
  }

  @Test
  void checksNameSomeOfTheThreeOrAreLeftOutAndStartNothingOtherwise() {
    int started = API.stack().reconciliations.calls.size();
    String path = "/v1/ops/reconciliations";
    assertThat(assertInvalidField(API.postJson(path, Map.of("checks", List.of()), null), "checks"))
        .isEqualTo(
            "checks must name at least one of DRIFT, PAYMENTS, WEBHOOKS; leave it out for all"
                + " three");
    for (String body :
        List.of(
            "{\"checks\":[\"WEBHOOKS\",\"LEDGER\"]}",
            "{\"checks\":[\"webhooks\"]}",
            "{\"checks\":[\"DRIFT \"]}")) {
      String message = assertInvalidField(API.postJson(path, body, null), "checks");
      assertThat(message)
          .as(body)
          .isEqualTo("checks may name only DRIFT, PAYMENTS, WEBHOOKS (upper case)");
    }
    // No JSON null anywhere in a body: the entry is named.
    assertInvalidField(API.postJson(path, "{\"checks\":[\"WEBHOOKS\",null]}", null), "checks[1]");
    // A repair of one subscription is its drift check: a list of checks would be ignored.
    assertThat(
            assertInvalidField(
                API.postJson(
                    path,
                    Map.of(
                        "accountId",
                        "acc-ops",
                        "subscriptionId",
                        "sub-1",
                        "checks",
                        List.of("DRIFT")),
                    null),
                "checks"))
        .isEqualTo("a run for one subscription checks its drift only; leave checks out");
    assertThat(API.stack().reconciliations.calls).as("runs started").hasSize(started);
  }

  @Test
  void aRunOfSomeChecksStartsWithOnlyThemAndItsKeyRemembersThem() {
    List<FakeReconciliations.Call> calls = API.stack().reconciliations.calls;
    int before = calls.size();
    String path = "/v1/ops/reconciliations";
    String key = "poll-" + UUID.randomUUID();
    Response poll =
        API.postJson(path, Map.of("checks", List.of("WEBHOOKS"), "lookbackDays", 1), key);

    assertThat(poll.getStatus()).isEqualTo(202);
    String runId = body(poll).get("id").asText();
    ReconciliationInput input = (ReconciliationInput) calls.get(before).input();
    assertThat(input.checks()).containsExactly(Check.WEBHOOKS);
    assertThat(input.lookbackDays()).isEqualTo(1);
    assertThat(input.repair()).isTrue();
    assertThat(input.trigger()).isEqualTo("api:" + API.operatorPrincipal() + ":webhooks");

    // The same key: a retry (the checks in another order, once more) finds the run; without the
    // checks it is another request.
    JsonNode retry =
        body(
            API.postJson(
                path, Map.of("checks", List.of("WEBHOOKS", "WEBHOOKS"), "lookbackDays", 1), key));
    assertThat(retry.get("id").asText()).isEqualTo(runId);
    assertThat(retry.get("started").asBoolean()).isFalse();
    JsonNode conflict = assertProblem(API.postJson(path, Map.of("lookbackDays", 1), key), 409);
    assertThat(conflict.get("detail").asText())
        .contains("window lookbackDays=1 repair=true checks=WEBHOOKS");

    // Naming all three is the run without checks.
    String full = "full-" + UUID.randomUUID();
    String fullRun = body(API.postJson(path, Map.of(), full)).get("id").asText();
    JsonNode allNamed =
        body(API.postJson(path, Map.of("checks", List.of("WEBHOOKS", "PAYMENTS", "DRIFT")), full));
    assertThat(allNamed.get("id").asText()).isEqualTo(fullRun);
    assertThat(calls.subList(before, calls.size()))
        .extracting(call -> ((ReconciliationInput) call.input()).trigger())
        .containsExactly(
            "api:" + API.operatorPrincipal() + ":webhooks",
            "api:" + API.operatorPrincipal() + ":webhooks",
            "api:" + API.operatorPrincipal(),
            "api:" + API.operatorPrincipal(),
            "api:" + API.operatorPrincipal());
  }

  @Test
  void reportsAreListedNewestFirstOnePageAtATime() {
    Instant first = ApiTestStack.START.minus(Duration.ofMinutes(2));
    API.stack().reconciliationReports.save(report("run-a", first));
    API.stack().reconciliationReports.save(report("run-b", first.plus(Duration.ofMinutes(1))));

    JsonNode page1 = body(API.get("/v1/ops/reconciliations?limit=1"));
    assertThat(page1.get("items")).hasSize(1);
    assertThat(page1.get("items").get(0).get("id").asText()).isEqualTo("run-b");
    JsonNode page2 =
        body(
            API.get(
                "/v1/ops/reconciliations?limit=1&pageToken="
                    + page1.get("nextPageToken").asText()));
    assertThat(page2.get("items").get(0).get("id").asText()).isEqualTo("run-a");
  }

  /** A run's report as the reconciliation writes it when it starts. */
  private static ReconciliationSummary report(String id, Instant startedAt) {
    return new ReconciliationSummary(
        id,
        "reconciliation-api-" + id,
        "api",
        ReconciliationSummary.Status.RUNNING,
        startedAt,
        null,
        LocalDate.of(2026, 3, 7),
        LocalDate.of(2026, 3, 10),
        true,
        null,
        null);
  }
}
