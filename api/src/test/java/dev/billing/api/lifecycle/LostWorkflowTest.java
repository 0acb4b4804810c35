package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.domain.BillingIds;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.PageRequest;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowStub;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A change to a subscription whose workflow is gone (terminated by hand, lost with a namespace):
 * the API answers 503 and starts a repair of that one subscription, which restarts the workflow
 * from the record, so the retried change goes through; at most one repair per subscription per
 * window. An open-ended pause has no due date, so no daily run would ever have reached it.
 */
@Tag("e2e")
class LostWorkflowTest {

  static final ApiTestSupport API = ApiTestSupport.shared();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void resumingAPauseWhoseWorkflowIsGoneRestartsItAndTheRetrySucceeds() throws Exception {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    JsonNode paused = CALLS.ok(account, id, "pause", "{\"reason\":\"on hold\"}");
    assertThat(paused.get("nextPaymentDate").isNull()).isTrue();
    lose(id);
    String customer = API.accountKey(account);

    HttpResponse<String> lost = postOnce(customer, subscriptionPath(account, id) + "/resume");

    assertThat(lost.statusCode()).isEqualTo(503);
    assertThat(lost.headers().firstValue("Retry-After")).hasValue("5");
    String repair = repairNamedIn(lost);
    assertThat(repair).startsWith("repair-subscription-" + id + "-");
    assertThat(detail(lost))
        .isEqualTo(
            "The subscription's workflow is not running; repair "
                + repair
                + " is restarting it from the record. Retry in a few seconds.");
    WorkflowExecutionDescription run = awaitClosed(repair);
    assertThat(run.getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    String reportId = run.getExecution().getRunId();
    // The customer's key asked: the report names it (key ids are the token's 16 characters after
    // "bk_").
    assertThat(
            API.stack()
                .reconciliationReports
                .get(reportId, API.stack().clock.instant())
                .orElseThrow()
                .trigger())
        .isEqualTo("api:key:" + customer.substring(3, 19) + " workflow-not-found");
    assertThat(
            API.stack()
                .reconciliationReports
                .findings(reportId, API.stack().clock.instant(), PageRequest.first(10))
                .items())
        .singleElement()
        .satisfies(
            finding -> {
              assertThat(finding.kind()).isEqualTo(FindingKind.WORKFLOW_CLOSED);
              assertThat(finding.repair()).isEqualTo(Repair.WORKFLOW_RESTARTED);
              assertThat(finding.detail()).contains("while the record is PAUSED");
            });

    JsonNode resumed = CALLS.ok(account, id, "resume", "{}");

    // Never charged yet: INCOMPLETE again until its first payment.
    assertThat(resumed.get("status").asText()).isEqualTo("INCOMPLETE");
    assertThat(resumed.get("nextPaymentDate").asText()).isEqualTo("2026-03-20");
    assertThat(CALLS.cyclesOf(account, id, "SUBSCRIPTION_PAUSED")).hasSize(1);
    assertThat(CALLS.cyclesOf(account, id, "SUBSCRIPTION_RESUMED")).hasSize(1);
  }

  @Test
  void aSubscriptionIsRepairedAtMostOncePerWindowHoweverOftenItIsAsked() throws Exception {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    CALLS.ok(account, id, "pause", "{}");
    lose(id);
    String path = subscriptionPath(account, id) + "/cancel";
    String first = repairNamedIn(postOnce(API.operatorKey(), path));
    awaitClosed(first);
    lose(id); // lost again at once: this window's repair is spent

    HttpResponse<String> again = postOnce(API.operatorKey(), path);

    assertThat(again.statusCode()).isEqualTo(503);
    long retryAfter = Long.parseLong(again.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter)
        .as("seconds to the next window")
        .isBetween(1L, ReconciliationRuns.REPAIR_WINDOW.toSeconds());
    assertThat(detail(again))
        .isEqualTo(
            "The subscription's workflow is not running again after repair "
                + first
                + " of this 15-minute window (its report says what it found); the next repair may start in "
                + retryAfter
                + " s, or ask an operator.");
    assertThat(workflow(BillingIds.workflowId(id)).describe().getStatus())
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);

    // Asked again when the answer said: the next window repairs it.
    CALLS.sleepUntil(API.stack().clock.instant().plus(Duration.ofSeconds(retryAfter)));
    String second = repairNamedIn(postOnce(API.operatorKey(), path));
    assertThat(second).isNotEqualTo(first).startsWith("repair-subscription-" + id + "-");
    awaitClosed(second);
    assertThat(CALLS.ok(account, id, "cancel", "{}").get("status").asText()).isEqualTo("CANCELLED");
  }

  /** Its pending work done (time moves only once it is), then its workflow terminated. */
  private static void lose(String id) {
    CALLS.sleepUntil(API.stack().clock.instant().plus(Duration.ofMinutes(1)));
    workflow(BillingIds.workflowId(id)).terminate("lost by hand");
  }

  /** The repair a 503 says is restarting the workflow. */
  private static String repairNamedIn(HttpResponse<String> lost) {
    assertThat(lost.statusCode()).isEqualTo(503);
    Matcher repair = Pattern.compile("repair (\\S+) is restarting it").matcher(detail(lost));
    assertThat(repair.find()).as("a repair named in %s", lost.body()).isTrue();
    return repair.group(1);
  }

  private static String detail(HttpResponse<String> response) {
    return ApiTestSupport.parse(response.body()).get("detail").asText();
  }

  /**
   * One POST, never retried: the test client (Apache HttpClient 5) would retry a 503 by itself,
   * honouring Retry-After, and show only the retry's answer.
   */
  private static HttpResponse<String> postOnce(String token, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://localhost:" + API.extension().getLocalPort() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static WorkflowStub workflow(String workflowId) {
    return API.stack().env.getWorkflowClient().newUntypedWorkflowStub(workflowId);
  }

  /** Polled: waiting on its result would let the test clock skip ahead. */
  private static WorkflowExecutionDescription awaitClosed(String workflowId)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    WorkflowExecutionDescription run = workflow(workflowId).describe();
    while (run.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      assertThat(System.nanoTime()).as("%s still running", workflowId).isLessThan(deadline);
      Thread.sleep(50);
      run = workflow(workflowId).describe();
    }
    return run;
  }
}
