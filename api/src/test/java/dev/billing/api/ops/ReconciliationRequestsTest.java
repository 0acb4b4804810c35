package dev.billing.api.ops;

import static dev.billing.api.support.ApiRequests.assertInvalidField;
import static dev.billing.api.support.ApiRequests.assertProblem;
import static dev.billing.api.support.ApiRequests.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestStack;
import dev.billing.api.support.ResourceTestSupport;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
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
    assertThat(API.stack().reconciliations.calls).as("runs started").isEmpty();
  }

  @Test
  void badInputIsAProblemNamingTheFieldAndStartsNothing() {
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
    assertThat(API.stack().reconciliations.calls).as("runs started").isEmpty();
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
