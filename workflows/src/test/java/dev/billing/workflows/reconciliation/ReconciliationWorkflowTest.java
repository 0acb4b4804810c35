package dev.billing.workflows.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.BackgroundClose;
import dev.billing.workflows.activities.ReconciliationActivities;
import dev.billing.workflows.activities.SubscriptionCheckInput;
import dev.billing.workflows.activities.WindowCheckInput;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The order, extent and bookkeeping of one reconciliation run, against scripted steps. */
@Timeout(60)
class ReconciliationWorkflowTest {

  private static final String QUEUE = "ops";
  private TestWorkflowEnvironment env;
  private final ScriptedSteps steps = new ScriptedSteps();

  @BeforeEach
  void start() {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2028-03-10T03:00:00Z"))
                .build());
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(
        ReconciliationWorkflowImpl.class, SubscriptionRepairWorkflowImpl.class);
    worker.registerActivitiesImplementations(steps);
    env.start();
  }

  @AfterEach
  void stop() {
    BackgroundClose.close(env);
  }

  private ReconciliationSummary run(ReconciliationInput input) {
    ReconciliationWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ReconciliationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId("reconciliation-test")
                    .setTaskQueue(QUEUE)
                    .build());
    return workflow.run(input);
  }

  @Test
  void eachCheckCoversTheWindowCallAfterCallUntilItsCursorRunsOut() {
    steps.dueCursors = List.of("2028-03-09|page-2", "2028-03-10");

    ReconciliationSummary summary = run(new ReconciliationInput(2, true, "api:ops"));

    assertThat(steps.calls)
        .containsExactly(
            "open RUNNING 2028-03-08..2028-03-10",
            // The drift check reads tomorrow too: in zones ahead of UTC it is already due.
            "due 2028-03-08..2028-03-11 from null",
            "due 2028-03-08..2028-03-11 from 2028-03-09|page-2",
            "due 2028-03-08..2028-03-11 from 2028-03-10",
            "charges 2028-03-08..2028-03-10 from null",
            "webhooks 2028-03-08..2028-03-10 from null",
            "close COMPLETED");
    // One "now" for the whole run: the workflow time it started at (the test server's clock runs
    // in real time from 03:00 until something sleeps).
    assertThat(steps.asOf).hasSize(5).containsOnly(summary.startedAt());
    assertThat(summary.startedAt())
        .isBetween(Instant.parse("2028-03-10T03:00:00Z"), Instant.parse("2028-03-10T03:01:00Z"));
    assertThat(summary.status()).isEqualTo(ReconciliationSummary.Status.COMPLETED);
    assertThat(summary.trigger()).isEqualTo("api:ops");
    assertThat(summary.from()).isEqualTo(LocalDate.of(2028, 3, 8));
    assertThat(summary.to()).isEqualTo(LocalDate.of(2028, 3, 10));
    // Each due call examined 10 and found one WORKFLOW_MISSING; charges 4 (one receipt missing);
    // events 6 (two missed).
    ReconciliationCounts counts = summary.counts();
    assertThat(counts.subscriptionsChecked()).isEqualTo(30);
    assertThat(counts.chargesCompared()).isEqualTo(4);
    assertThat(counts.eventsCompared()).isEqualTo(6);
    assertThat(counts.findings())
        .containsOnly(
            Map.entry(FindingKind.WORKFLOW_MISSING, 3),
            Map.entry(FindingKind.RECEIPT_MISSING, 1),
            Map.entry(FindingKind.WEBHOOK_MISSED, 2));
    assertThat(counts.repaired()).isEqualTo(3 + 1 + 2);
    assertThat(counts.totalFindings()).isEqualTo(6);
    assertThat(summary.reportId()).isEqualTo(steps.closed.reportId()).isNotBlank();
    assertThat(steps.closed.finishedAt()).isNotNull();
  }

  @Test
  void aLongRunContinuesAsNewWithItsProgressAndKeepsOneReport() {
    List<String> cursors = new ArrayList<>();
    for (int page = 1; page < 150; page++) {
      cursors.add("2028-03-09|page-" + page);
    }
    steps.dueCursors = cursors; // 150 due calls
    ReconciliationWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ReconciliationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId("reconciliation-long")
                    .setTaskQueue(QUEUE)
                    .build());

    WorkflowExecution firstRun =
        WorkflowClient.start(workflow::run, new ReconciliationInput(1, true, "schedule"));
    ReconciliationSummary summary =
        WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);

    String lastRun =
        env.getWorkflowClient()
            .getWorkflowServiceStubs()
            .blockingStub()
            .describeWorkflowExecution(
                DescribeWorkflowExecutionRequest.newBuilder()
                    .setNamespace(env.getNamespace())
                    .setExecution(
                        WorkflowExecution.newBuilder().setWorkflowId("reconciliation-long"))
                    .build())
            .getWorkflowExecutionInfo()
            .getExecution()
            .getRunId();
    assertThat(lastRun).as("continued as new").isNotEqualTo(firstRun.getRunId());
    assertThat(summary.reportId()).isEqualTo(firstRun.getRunId());
    assertThat(steps.calls).filteredOn(c -> c.startsWith("open")).hasSize(1);
    assertThat(steps.calls).filteredOn(c -> c.startsWith("due")).hasSize(150);
    // The 101st call is the first of the new run, from the cursor the 100th returned.
    assertThat(steps.calls.get(101))
        .isEqualTo("due 2028-03-09..2028-03-11 from 2028-03-09|page-100");
    assertThat(steps.calls.subList(151, steps.calls.size()))
        .containsExactly(
            "charges 2028-03-09..2028-03-10 from null",
            "webhooks 2028-03-09..2028-03-10 from null",
            "close COMPLETED");
    assertThat(steps.asOf).containsOnly(summary.startedAt());
    assertThat(steps.repairFlags).containsOnly(true);
    assertThat(summary.counts().subscriptionsChecked()).isEqualTo(1500);
    assertThat(summary.counts().findings())
        .containsOnly(
            Map.entry(FindingKind.WORKFLOW_MISSING, 150),
            Map.entry(FindingKind.RECEIPT_MISSING, 1),
            Map.entry(FindingKind.WEBHOOK_MISSED, 2));
    assertThat(summary.trigger()).isEqualTo("schedule");
    assertThat(steps.closed.reportId()).isEqualTo(firstRun.getRunId());
  }

  @Test
  void aStepThatFailsAfterItsRetriesIsReportedAndTheRunGoesOn() {
    steps.failCharges = true;

    ReconciliationSummary summary = run(new ReconciliationInput(1, false, "schedule"));

    assertThat(summary.status()).isEqualTo(ReconciliationSummary.Status.PARTIAL);
    assertThat(summary.failedSteps())
        .containsExactly("CompareGatewayCharges 2028-03-09..2028-03-10: gateway down (scripted)");
    assertThat(steps.calls)
        .containsSubsequence("webhooks 2028-03-09..2028-03-10 from null", "close PARTIAL");
    assertThat(steps.chargeAttempts).as("retried by its policy first").isEqualTo(5);
    assertThat(summary.counts().chargesCompared()).isZero();
    assertThat(summary.counts().eventsCompared()).isEqualTo(6);
    assertThat(steps.repairFlags).containsOnly(false);
  }

  @Test
  void aWebhookPollRunsOnlyTheWebhookStepAndSaysSoInItsTrigger() {
    ReconciliationSummary summary =
        run(
            new ReconciliationInput(
                1,
                true,
                ReconciliationInput.trigger("schedule", List.of(FindingKind.Check.WEBHOOKS)),
                List.of(FindingKind.Check.WEBHOOKS)));

    assertThat(steps.calls)
        .containsExactly(
            "open RUNNING 2028-03-09..2028-03-10",
            "webhooks 2028-03-09..2028-03-10 from null",
            "close COMPLETED");
    assertThat(steps.dueCalls).isZero();
    assertThat(steps.chargeAttempts).isZero();
    assertThat(summary.trigger()).isEqualTo("schedule:webhooks");
    assertThat(summary.status()).isEqualTo(ReconciliationSummary.Status.COMPLETED);
    assertThat(summary.counts().subscriptionsChecked()).isZero();
    assertThat(summary.counts().chargesCompared()).isZero();
    assertThat(summary.counts().eventsCompared()).isEqualTo(6);
    assertThat(summary.counts().findings()).containsOnly(Map.entry(FindingKind.WEBHOOK_MISSED, 2));
    assertThat(steps.asOf).containsOnly(summary.startedAt());
  }

  @Test
  void someChecksRunInTheFixedOrderWhateverTheOrderAsked() {
    run(
        new ReconciliationInput(
            1, false, "api:ops", List.of(FindingKind.Check.WEBHOOKS, FindingKind.Check.DRIFT)));

    assertThat(steps.calls)
        .containsExactly(
            "open RUNNING 2028-03-09..2028-03-10",
            "due 2028-03-09..2028-03-11 from null",
            "webhooks 2028-03-09..2028-03-10 from null",
            "close COMPLETED");
  }

  @Test
  void aLongPollContinuesAsNewAndGoesOnWithTheWebhookStepOnly() {
    List<String> cursors = new ArrayList<>();
    for (int page = 1; page < 120; page++) {
      cursors.add("2028-03-09|events-" + page);
    }
    steps.webhookCursors = cursors; // 120 webhook calls
    ReconciliationWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                ReconciliationWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId("poll-long")
                    .setTaskQueue(QUEUE)
                    .build());

    WorkflowExecution firstRun =
        WorkflowClient.start(
            workflow::run,
            new ReconciliationInput(
                1, true, "schedule:webhooks", List.of(FindingKind.Check.WEBHOOKS)));
    ReconciliationSummary summary =
        WorkflowStub.fromTyped(workflow).getResult(ReconciliationSummary.class);

    assertThat(summary.reportId()).isEqualTo(firstRun.getRunId());
    assertThat(steps.calls.get(0)).isEqualTo("open RUNNING 2028-03-09..2028-03-10");
    assertThat(steps.calls.subList(1, steps.calls.size() - 1))
        .hasSize(120)
        .allMatch(c -> c.startsWith("webhooks 2028-03-09..2028-03-10 from "));
    // The 101st call is the first of the new run, from the cursor the 100th returned.
    assertThat(steps.calls.get(101))
        .isEqualTo("webhooks 2028-03-09..2028-03-10 from 2028-03-09|events-100");
    assertThat(steps.calls.get(steps.calls.size() - 1)).isEqualTo("close COMPLETED");
    assertThat(steps.dueCalls).isZero();
    assertThat(steps.chargeAttempts).isZero();
    assertThat(summary.counts().eventsCompared()).isEqualTo(720);
    assertThat(summary.counts().findings())
        .containsOnly(Map.entry(FindingKind.WEBHOOK_MISSED, 240));
    assertThat(summary.trigger()).isEqualTo("schedule:webhooks");
  }

  @Test
  void aRepairOfOneSubscriptionChecksOnlyItsDrift() {
    ReconciliationSummary summary =
        repair(new SubscriptionRepairInput("acc-1", "sub-1", true, "api:ops workflow-not-found"));

    assertThat(steps.calls)
        .containsExactly(
            "open RUNNING 2028-03-10..2028-03-10", "subscription acc-1/sub-1", "close COMPLETED");
    assertThat(steps.asOf).containsExactly(summary.startedAt());
    assertThat(steps.repairFlags).containsExactly(true);
    assertThat(summary.counts().subscriptionsChecked()).isEqualTo(1);
    assertThat(summary.counts().findings())
        .containsOnly(Map.entry(FindingKind.WORKFLOW_MISSING, 1));
    assertThat(summary.counts().repaired()).isEqualTo(1);
    assertThat(summary.trigger()).isEqualTo("api:ops workflow-not-found");
    assertThat(summary.workflowId()).isEqualTo("repair-test");
  }

  @Test
  void aFailedCheckOfOneSubscriptionIsAPartialReportAndAFailedRun() {
    steps.failSubscription = true;

    assertThatThrownBy(() -> repair(new SubscriptionRepairInput("acc-1", "sub-1", true, null)))
        .isInstanceOf(WorkflowFailedException.class)
        .rootCause()
        .hasMessageContaining(
            "the check of subscription sub-1 failed: CheckSubscription sub-1:"
                + " DynamoDB down (scripted)");
    assertThat(steps.closed.status()).isEqualTo(ReconciliationSummary.Status.PARTIAL);
    assertThat(steps.closed.failedSteps())
        .containsExactly("CheckSubscription sub-1: DynamoDB down (scripted)");
    assertThat(steps.closed.trigger()).isEqualTo("unknown");
  }

  @Test
  void aRepairNamingNoSubscriptionFailsReadablyAndTouchesNothing() {
    assertThatThrownBy(() -> repair(new SubscriptionRepairInput("acc-1", " ", true, "cli")))
        .isInstanceOf(WorkflowFailedException.class)
        .rootCause()
        .hasMessageContaining("a subscription repair names its accountId and subscriptionId");
    assertThat(steps.calls).isEmpty();
  }

  private ReconciliationSummary repair(SubscriptionRepairInput input) {
    SubscriptionRepairWorkflow workflow =
        env.getWorkflowClient()
            .newWorkflowStub(
                SubscriptionRepairWorkflow.class,
                WorkflowOptions.newBuilder()
                    .setWorkflowId("repair-test")
                    .setTaskQueue(QUEUE)
                    .build());
    return workflow.run(input);
  }

  /** Scripted steps: every due call examines 10 subscriptions and finds one missing workflow. */
  static final class ScriptedSteps implements ReconciliationActivities {
    final List<String> calls = new ArrayList<>();
    final List<Instant> asOf = new ArrayList<>();
    final List<Boolean> repairFlags = new ArrayList<>();
    List<String> dueCursors = List.of();
    List<String> webhookCursors = List.of();
    boolean failCharges;
    boolean failSubscription;
    int chargeAttempts;
    int dueCalls;
    int webhookCalls;
    ReconciliationSummary closed;

    @Override
    public synchronized void openReport(ReconciliationSummary summary) {
      calls.add("open " + summary.status() + " " + summary.from() + ".." + summary.to());
    }

    @Override
    public synchronized CheckResult checkDueSubscriptions(WindowCheckInput input) {
      record("due", input);
      String next = dueCalls < dueCursors.size() ? dueCursors.get(dueCalls) : null;
      dueCalls++;
      return new CheckResult(10, Map.of(FindingKind.WORKFLOW_MISSING, 1), 1, 0, next);
    }

    @Override
    public synchronized CheckResult checkSubscription(SubscriptionCheckInput input) {
      if (failSubscription) {
        throw ApplicationFailure.newNonRetryableFailure("DynamoDB down (scripted)", "Unavailable");
      }
      calls.add("subscription " + input.accountId() + "/" + input.subscriptionId());
      asOf.add(input.asOf());
      repairFlags.add(input.repair());
      return new CheckResult(1, Map.of(FindingKind.WORKFLOW_MISSING, 1), 1, 0, null);
    }

    @Override
    public synchronized CheckResult compareGatewayCharges(WindowCheckInput input) {
      chargeAttempts++;
      if (failCharges) {
        throw ApplicationFailure.newFailure("gateway down (scripted)", "GatewayUnavailable");
      }
      record("charges", input);
      return new CheckResult(4, Map.of(FindingKind.RECEIPT_MISSING, 1), 1, 0, null);
    }

    @Override
    public synchronized CheckResult replayMissedWebhooks(WindowCheckInput input) {
      record("webhooks", input);
      String next = webhookCalls < webhookCursors.size() ? webhookCursors.get(webhookCalls) : null;
      webhookCalls++;
      return new CheckResult(6, Map.of(FindingKind.WEBHOOK_MISSED, 2), 2, 0, next);
    }

    @Override
    public synchronized void closeReport(ReconciliationSummary summary) {
      calls.add("close " + summary.status());
      closed = summary;
    }

    private void record(String step, WindowCheckInput input) {
      calls.add(step + " " + input.from() + ".." + input.to() + " from " + input.cursor());
      asOf.add(input.asOf());
      repairFlags.add(input.repair());
    }
  }
}
