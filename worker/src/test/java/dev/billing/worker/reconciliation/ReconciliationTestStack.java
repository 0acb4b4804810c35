package dev.billing.worker.reconciliation;

import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.PageRequest;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.worker.BillingWorker;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.TaskQueues;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The worker's subscription and reconciliation workflows on the Java test server (which has no
 * Schedules, so scheduling takes the cron path) over DynamoDB Local and the sandbox gateway.
 * Nothing relays the sandbox's webhooks: every charge's event is one a reconciliation finds
 * missing.
 */
final class ReconciliationTestStack implements AutoCloseable {
  private static final byte[] KEY =
      "worker-test-page-token-key-32-bytes".getBytes(StandardCharsets.UTF_8);

  final LocalDynamoDb local = LocalDynamoDb.start();
  final TestWorkflowEnvironment env;
  final DynamoBillingStore store;
  final SandboxGateway sandbox;
  final ReconciliationReports reports;

  /** What the reconciliation counted, in order; added on activity threads. */
  final List<Finding> counted = new CopyOnWriteArrayList<>();

  ReconciliationTestStack(Instant start) {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(start).build());
    var dynamo = local.client();
    TableNames tables = TableNames.defaults();
    local.createTables(tables);
    store = new DynamoBillingStore(dynamo, tables, StoreSettings.defaults(KEY));
    reports = new ReconciliationReports(dynamo, tables.billing(), KEY);
    BillingSearchAttributes.ALL.forEach(
        k -> env.registerSearchAttribute(k.getName(), k.getValueType()));
    sandbox = new SandboxGateway(this::now);
    Worker worker =
        BillingWorker.register(
            env.getWorkerFactory(),
            TaskQueues.BILLING,
            new BillingWorker.Adapters(store, sandbox, new OutboxNotifier()));
    BillingWorker.registerReconciliation(
        worker,
        BillingWorker.reconciliation(
            dynamo,
            tables,
            store,
            KEY,
            env.getWorkflowClient(),
            TaskQueues.BILLING,
            sandbox,
            "sandbox",
            DunningPolicy.DEFAULT,
            this::now,
            counted::add));
    env.start();
  }

  Instant now() {
    return Instant.ofEpochMilli(env.currentTimeMillis());
  }

  WorkflowClient client() {
    return env.getWorkflowClient();
  }

  /**
   * A subscription in DynamoDB whose workflow is gone, due on the 1st of March 2026 (so overdue
   * from the 2nd): the drift check restarts it, and the restarted workflow charges at once.
   */
  void recordLostSubscription(String subscriptionId) {
    Subscription lost =
        new Subscription(
            "acc-1",
            subscriptionId,
            "pro-monthly",
            new Money(999, "USD"),
            "ana@example.com",
            new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
            new BillingSchedule(YearMonth.of(2026, 3), 1, Term.MONTHLY, "UTC", 0),
            SubscriptionStatus.ACTIVE,
            1,
            null,
            LocalDate.of(2026, 3, 1),
            null,
            null,
            Instant.parse("2026-02-20T00:00:00Z"),
            1,
            "req-1");
    store.createSubscription(
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
  }

  /** The workflow's status as the server describes it. */
  WorkflowExecutionStatus status(String workflowId) {
    return client().newUntypedWorkflowStub(workflowId).describe().getStatus();
  }

  /** Finished reports, newest first, once there are {@code count} (activities run in real time). */
  List<ReconciliationSummary> awaitReports(int count) {
    Instant now = now();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      List<ReconciliationSummary> done =
          reports.list(now, PageRequest.first(20)).items().stream()
              .filter(r -> r.status() != ReconciliationSummary.Status.RUNNING)
              .toList();
      if (done.size() >= count || System.nanoTime() > deadline) {
        return done;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void close() {
    env.close();
    local.close();
  }
}
