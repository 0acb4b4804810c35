package dev.billing.bench.crash;

import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.bench.report.Progress;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.PendingActivityState;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The reconciliation repair of the crash scenario, started as an operator starts one ({@code POST
 * /v1/ops/reconciliations}: {@link ReconciliationRuns}, repair on, the default look-back), and
 * watched through the server's description of it: a kill is aimed at a moment when the worker runs
 * one of its check steps.
 */
final class Repairs {
  /** The steps that read and repair; the report's open and close are not worth a kill. */
  private static final Set<String> STEPS =
      Set.of("CheckDueSubscriptions", "CompareGatewayCharges", "ReplayMissedWebhooks");

  /**
   * A run can finish before a step is caught running (a quiet window): then another one is started.
   */
  private static final int ATTEMPTS = 5;

  private final ReconciliationRuns runs;
  private final WorkflowClient client;
  private final long seed;
  private String workflowId;

  Repairs(ReconciliationRuns runs, WorkflowClient client, long seed) {
    this.runs = runs;
    this.client = client;
    this.seed = seed;
  }

  /** Starts a repair run and returns once one of its check steps is running on the worker. */
  void startAndAwaitRunningStep(Duration deadline) throws InterruptedException {
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      workflowId =
          runs.start(
                  new ReconciliationInput(
                      ReconciliationInput.DEFAULT_LOOKBACK_DAYS, true, "api:bench-crash"),
                  "bench-crash-" + seed + "-" + attempt)
              .workflowId();
      Progress.log("crash: reconciliation repair " + workflowId + " started");
      long end = System.nanoTime() + deadline.toNanos();
      while (System.nanoTime() < end) {
        DescribeWorkflowExecutionResponse run = describe();
        if (run.getWorkflowExecutionInfo().getStatus()
            != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          break;
        }
        if (!runningSteps(run).isEmpty()) {
          return;
        }
        Thread.sleep(20);
      }
    }
    throw new IllegalStateException(
        "no reconciliation step was caught running in " + ATTEMPTS + " runs");
  }

  /** True while the latest repair run is open. */
  boolean running() {
    return workflowId != null
        && describe().getWorkflowExecutionInfo().getStatus()
            == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /** The latest run's steps the worker is running now, for the log. */
  List<String> runningStep() {
    return workflowId == null ? List.of() : runningSteps(describe());
  }

  int killsDuring(List<CrashScenario.KillRecord> kills) {
    return (int) kills.stream().filter(CrashScenario.KillRecord::repairRunning).count();
  }

  String workflowId() {
    return workflowId;
  }

  /** The latest run's report head once it has finished (through every continue-as-new). */
  ReconciliationSummary awaitResult(Duration deadline) throws Exception {
    return client
        .newUntypedWorkflowStub(workflowId)
        .getResult(deadline.toSeconds(), TimeUnit.SECONDS, ReconciliationSummary.class);
  }

  private static List<String> runningSteps(DescribeWorkflowExecutionResponse run) {
    return run.getPendingActivitiesList().stream()
        .filter(a -> a.getState() == PendingActivityState.PENDING_ACTIVITY_STATE_STARTED)
        .map(a -> a.getActivityType().getName())
        .filter(STEPS::contains)
        .toList();
  }

  private DescribeWorkflowExecutionResponse describe() {
    return client
        .getWorkflowServiceStubs()
        .blockingStub()
        .describeWorkflowExecution(
            DescribeWorkflowExecutionRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                .build());
  }
}
