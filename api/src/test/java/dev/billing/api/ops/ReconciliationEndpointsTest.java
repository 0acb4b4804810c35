package dev.billing.api.ops;

import static dev.billing.api.support.ApiTestSupport.assertProblem;
import static dev.billing.api.support.ApiTestSupport.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * /v1/ops/reconciliations on the real stack: a run started, what it finds and repairs, its report
 * read, one run per Idempotency-Key. What the endpoints refuse, and the paging of reports, are
 * ReconciliationRequestsTest's.
 */
@Tag("e2e")
class ReconciliationEndpointsTest {

  static final ApiTestSupport API = ApiTestSupport.shared();

  @Test
  void aRunStartedNowWritesAReportWithItsFindingsAndRepairs() {
    // A subscription DynamoDB bills (due yesterday) but no workflow runs.
    String id = recordWithoutWorkflow(YearMonth.of(2026, 3), 9);

    Response started = API.postJson("/v1/ops/reconciliations", Map.of("lookbackDays", 2), null);

    assertThat(started.getStatus()).isEqualTo(202);
    JsonNode answer = body(started);
    String reportId = answer.get("id").asText();
    assertThat(answer.get("started").asBoolean()).isTrue();
    assertThat(answer.get("workflowId").asText()).startsWith("reconciliation-api-");
    assertThat(started.getLocation().getPath()).isEqualTo("/v1/ops/reconciliations/" + reportId);

    JsonNode report = awaitFinished(reportId);
    JsonNode head = report.get("report");
    assertThat(head.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(head.get("trigger").asText()).isEqualTo("api:" + API.operatorPrincipal());
    assertThat(head.get("from").asText()).isEqualTo("2026-03-08");
    assertThat(head.get("to").asText()).isEqualTo("2026-03-10");
    assertThat(head.get("repair").asBoolean()).isTrue();
    assertThat(head.get("findingsByKind").get("WORKFLOW_MISSING").asInt()).isEqualTo(1);
    assertThat(head.get("repaired").asInt()).isGreaterThanOrEqualTo(1);
    JsonNode finding =
        java.util.stream.StreamSupport.stream(report.get("findings").spliterator(), false)
            .filter(f -> id.equals(f.path("subscriptionId").asText()))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no finding about " + id + ": " + report.get("findings")));
    assertThat(finding.get("kind").asText()).isEqualTo("WORKFLOW_MISSING");
    assertThat(finding.get("check").asText()).isEqualTo("DRIFT");
    assertThat(finding.get("repair").asText()).isEqualTo("WORKFLOW_RESTARTED");
    assertThat(finding.get("detail").asText()).startsWith("no workflow subscription-" + id);

    JsonNode listed = body(API.get("/v1/ops/reconciliations?limit=50"));
    assertThat(listed.get("items").findValuesAsText("id")).contains(reportId);
  }

  @Test
  void aRunForOneSubscriptionChecksItWhateverItsDueDate() {
    // Due in May: no window of this week reaches it.
    String id = recordWithoutWorkflow(YearMonth.of(2026, 5), 9);

    Response started =
        API.postJson(
            "/v1/ops/reconciliations", Map.of("accountId", "acc-ops", "subscriptionId", id), null);

    assertThat(started.getStatus()).isEqualTo(202);
    JsonNode report = awaitFinished(body(started).get("id").asText());
    JsonNode head = report.get("report");
    assertThat(head.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(head.get("from").asText()).isEqualTo("2026-03-10");
    assertThat(head.get("to").asText()).isEqualTo("2026-03-10");
    assertThat(head.get("subscriptionsChecked").asInt()).isEqualTo(1);
    assertThat(report.get("findings"))
        .singleElement()
        .satisfies(
            finding -> {
              assertThat(finding.get("subscriptionId").asText()).isEqualTo(id);
              assertThat(finding.get("kind").asText()).isEqualTo("WORKFLOW_MISSING");
              assertThat(finding.get("repair").asText()).isEqualTo("WORKFLOW_RESTARTED");
            });
  }

  @Test
  void anIdempotencyKeyReusedForAnotherRunIsA409AndStartsNothing() {
    String id = recordWithoutWorkflow(YearMonth.of(2026, 5), 9);
    String key = "ops-" + UUID.randomUUID();
    Map<String, Object> repairIt =
        Map.of("accountId", "acc-ops", "subscriptionId", id, "repair", false);
    JsonNode first = body(API.postJson("/v1/ops/reconciliations", repairIt, key));

    JsonNode again = body(API.postJson("/v1/ops/reconciliations", repairIt, key));
    Response window = API.postJson("/v1/ops/reconciliations", Map.of("repair", false), key);

    assertThat(again.get("id").asText()).isEqualTo(first.get("id").asText());
    assertThat(again.get("started").asBoolean()).isFalse();
    JsonNode conflict = assertProblem(window, 409);
    assertThat(conflict.get("type").asText()).endsWith("/idempotency-key-reused");
    assertThat(conflict.get("detail").asText())
        .contains("subscription acc-ops/" + id + " repair=false");
    assertThat(awaitFinished(first.get("id").asText()).get("report").get("repair").asBoolean())
        .isFalse();
  }

  /** A record DynamoDB bills on {@code day} of {@code firstMonth}, with no workflow behind it. */
  private static String recordWithoutWorkflow(YearMonth firstMonth, int day) {
    String id = "sub-" + UUID.randomUUID().toString().substring(0, 8);
    Subscription lost =
        new Subscription(
            "acc-ops",
            id,
            "pro-monthly",
            new Money(999, "USD"),
            "ana@example.com",
            new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
            new BillingSchedule(firstMonth, day, Term.MONTHLY, "UTC", 0),
            SubscriptionStatus.ACTIVE,
            1,
            null,
            firstMonth.atDay(day),
            null,
            null,
            Instant.parse("2026-02-20T00:00:00Z"),
            1,
            "req-1");
    API.stack()
        .store
        .createSubscription(
            new RecordInput(
                "create",
                null,
                lost,
                HistoryEvent.SUBSCRIPTION_CREATED,
                Process.API,
                "api",
                "created",
                null,
                null,
                lost.createdAt()));
    return id;
  }

  @Test
  void theSameIdempotencyKeyFindsTheSameRunAndADryRunRepairsNothing() {
    String key = "ops-" + UUID.randomUUID();
    JsonNode first = body(API.postJson("/v1/ops/reconciliations", Map.of("repair", false), key));
    Response again = API.postJson("/v1/ops/reconciliations", Map.of("repair", false), key);

    assertThat(again.getStatus()).isEqualTo(202);
    JsonNode second = body(again);
    assertThat(second.get("id").asText()).isEqualTo(first.get("id").asText());
    assertThat(second.get("workflowId").asText()).isEqualTo("reconciliation-api-" + key);
    assertThat(second.get("started").asBoolean()).isFalse();
    assertThat(awaitFinished(first.get("id").asText()).get("report").get("repair").asBoolean())
        .isFalse();
  }

  /** Activities run in real time: poll (bounded) until the run closed its report. */
  private static JsonNode awaitFinished(String reportId) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      Response response = API.get("/v1/ops/reconciliations/" + reportId);
      if (response.getStatus() == 200) {
        JsonNode report = body(response);
        if (!report.get("report").get("status").asText().equals("RUNNING")) {
          return report;
        }
      } else {
        response.close();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("report " + reportId + " not finished in 30 s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }
}
