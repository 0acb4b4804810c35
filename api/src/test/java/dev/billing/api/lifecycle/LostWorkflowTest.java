package dev.billing.api.lifecycle;

import static dev.billing.api.support.ApiTestSupport.newAccount;
import static dev.billing.api.support.ApiTestSupport.subscriptionBody;
import static dev.billing.api.support.ApiTestSupport.subscriptionPath;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.billing.api.ApiConfiguration;
import dev.billing.api.support.ApiTestSupport;
import dev.billing.api.support.LifecycleCalls;
import dev.billing.domain.BillingIds;
import dev.billing.store.PageRequest;
import dev.billing.workflows.reconciliation.FindingKind;
import dev.billing.workflows.reconciliation.Repair;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowStub;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A change to a subscription whose workflow is gone (terminated by hand, lost with a namespace):
 * the API answers 503 and starts a reconciliation of that one subscription, which restarts the
 * workflow from the record, so the retried change goes through. An open-ended pause has no due
 * date, so no daily run would ever have reached it.
 */
class LostWorkflowTest {

  static final ApiTestSupport API = ApiTestSupport.start();

  @RegisterExtension
  static final DropwizardAppExtension<ApiConfiguration> APP = API.extension();

  static final LifecycleCalls CALLS = new LifecycleCalls(API);

  @Test
  void resumingAPauseWhoseWorkflowIsGoneRestartsItAndTheRetrySucceeds() throws Exception {
    String account = newAccount();
    String id = API.created(account, subscriptionBody()).get("subscriptionId").asText();
    JsonNode paused = CALLS.ok(account, id, "pause", "{\"reason\":\"on hold\"}");
    assertThat(paused.get("nextPaymentDate").isNull()).isTrue();
    // The pause's activities done (time moves only once they are), then the workflow is lost.
    CALLS.sleepUntil(CALLS.today().plusDays(1));
    workflow(BillingIds.workflowId(id)).terminate("lost by hand");

    HttpResponse<String> lost = postOnce(subscriptionPath(account, id) + "/resume");

    assertThat(lost.statusCode()).isEqualTo(503);
    assertThat(lost.headers().firstValue("Retry-After")).hasValue("5");
    String run = "reconciliation-subscription-" + id;
    assertThat(ApiTestSupport.parse(lost.body()).get("detail").asText()).isEqualTo("The subscription's "
        + "workflow is not running; reconciliation " + run + " is restarting it from the record. Retry in a "
        + "few seconds.");
    WorkflowExecutionDescription repair = awaitClosed(run);
    assertThat(repair.getStatus()).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    String reportId = repair.getExecution().getRunId();
    assertThat(API.stack().reconciliationReports.findings(reportId, API.stack().clock.instant(),
        PageRequest.first(10)).items()).singleElement().satisfies(finding -> {
          assertThat(finding.kind()).isEqualTo(FindingKind.WORKFLOW_CLOSED);
          assertThat(finding.repair()).isEqualTo(Repair.WORKFLOW_RESTARTED);
          assertThat(finding.detail()).contains("while the record is PAUSED");
        });

    JsonNode resumed = CALLS.ok(account, id, "resume", "{}");

    assertThat(resumed.get("status").asText()).isEqualTo("ACTIVE");
    assertThat(resumed.get("nextPaymentDate").asText()).isEqualTo("2026-03-20");
    assertThat(CALLS.cyclesOf(account, id, "SUBSCRIPTION_PAUSED")).hasSize(1);
    assertThat(CALLS.cyclesOf(account, id, "SUBSCRIPTION_RESUMED")).hasSize(1);
  }

  /**
   * One POST, never retried: the test client (Apache HttpClient 5) would retry a 503 by itself,
   * honouring Retry-After, and show only the retry's answer.
   */
  private static HttpResponse<String> postOnce(String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + APP.getLocalPort() + path))
            .header("Authorization", "Bearer " + API.operatorKey())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static WorkflowStub workflow(String workflowId) {
    return API.stack().env.getWorkflowClient().newUntypedWorkflowStub(workflowId);
  }

  /** Polled: waiting on its result would let the test clock skip ahead. */
  private static WorkflowExecutionDescription awaitClosed(String workflowId) throws InterruptedException {
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
