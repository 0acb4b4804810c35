package dev.billing.worker.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.PageRequest;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.worker.BillingWorker;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleAlreadyRunningException;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleHandle;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.client.schedules.ScheduleUpdate;
import io.temporal.client.schedules.ScheduleUpdateInput;
import io.temporal.common.SearchAttributes;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.Functions;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Both scheduling paths with what runs here: the cron fallback for real on the test server (which
 * has no Schedules), the Schedule path against a recording schedule client.
 */
@Timeout(120)
class ReconciliationSchedulingTest {
  private static final byte[] KEY =
      "worker-test-page-token-key-32-bytes".getBytes(StandardCharsets.UTF_8);
  private static final ReconciliationSettings DAILY =
      new ReconciliationSettings(true, "0 3 * * *", 2, "billing-reconciliation");

  @Test
  void onTheTestServerTheDailyRunIsACronWorkflowThatFindsAndRepairsDrift() {
    LocalDynamoDb local = LocalDynamoDb.start();
    TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2026-03-02T02:00:00Z"))
                .build());
    try {
      var dynamo = local.client();
      TableNames tables = TableNames.defaults();
      local.createTables(tables);
      DynamoBillingStore store =
          new DynamoBillingStore(dynamo, tables, StoreSettings.defaults(KEY));
      BillingSearchAttributes.ALL.forEach(
          k -> env.registerSearchAttribute(k.getName(), k.getValueType()));
      SandboxGateway sandbox =
          new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
      List<Finding> counted = new CopyOnWriteArrayList<>(); // added on activity threads
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
              () -> Instant.ofEpochMilli(env.currentTimeMillis()),
              counted::add));
      env.start();
      // A subscription in DynamoDB whose workflow is gone (due on the 1st, so already overdue).
      Subscription lost =
          new Subscription(
              "acc-1",
              "sub-lost",
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

      ReconciliationScheduling scheduling =
          ReconciliationScheduling.of(env.getWorkflowClient(), TaskQueues.BILLING, DAILY);
      scheduling.start();
      assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.CRON);
      scheduling.start(); // a second worker start finds it running
      assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.CRON);

      env.sleep(Duration.ofHours(26)); // 03:00 on the 2nd and on the 3rd
      ReconciliationReports reports = new ReconciliationReports(dynamo, tables.billing(), KEY);
      Instant now = Instant.ofEpochMilli(env.currentTimeMillis());
      List<ReconciliationSummary> runs = awaitReports(reports, now, 2);

      assertThat(runs)
          .extracting(
              ReconciliationSummary::trigger,
              ReconciliationSummary::status,
              ReconciliationSummary::from,
              ReconciliationSummary::to)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  "cron",
                  ReconciliationSummary.Status.COMPLETED,
                  LocalDate.of(2026, 3, 1),
                  LocalDate.of(2026, 3, 3)),
              org.assertj.core.groups.Tuple.tuple(
                  "cron",
                  ReconciliationSummary.Status.COMPLETED,
                  LocalDate.of(2026, 2, 28),
                  LocalDate.of(2026, 3, 2)));
      ReconciliationSummary first = runs.get(1);
      assertThat(first.workflowId()).isEqualTo("billing-reconciliation");
      assertThat(first.counts().findings())
          .containsExactly(Map.entry(FindingKind.WORKFLOW_MISSING, 1));
      assertThat(reports.findings(first.reportId(), now, PageRequest.first(10)).items())
          .extracting(Finding::subscriptionId, Finding::repair)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("sub-lost", Repair.WORKFLOW_RESTARTED));
      // The restarted workflow charged the overdue cycle at once. Nothing relays the sandbox's
      // webhooks in this test, so the next run finds that charge's event missing and replays it.
      assertThat(sandbox.charges())
          .extracting(c -> c.idempotencyKey())
          .containsExactly("charge:sub-lost:1:1");
      assertThat(runs.get(0).counts().findings())
          .containsExactly(Map.entry(FindingKind.WEBHOOK_MISSED, 1));
      assertThat(runs.get(0).counts().repaired()).isEqualTo(1);
      assertThat(counted)
          .extracting(Finding::kind)
          .containsExactly(FindingKind.WORKFLOW_MISSING, FindingKind.WEBHOOK_MISSED);
    } finally {
      env.close();
      local.close();
    }
  }

  @Test
  void whereSchedulesExistOneScheduleIsCreatedThenKeptInStepWithTheConfigurationButNotUnpaused() {
    RecordingSchedules recording = new RecordingSchedules();
    ReconciliationScheduling scheduling =
        new ReconciliationScheduling(null, "billing", DAILY, () -> true, recording::client);

    scheduling.start();
    assertThat(scheduling.mode()).isEqualTo(ReconciliationScheduling.Mode.SCHEDULE);
    assertThat(recording.created).hasSize(1);
    Schedule schedule = recording.created.get(0);
    assertThat(recording.createdIds).containsExactly("billing-reconciliation");
    assertThat(schedule.getSpec().getCronExpressions()).containsExactly("0 3 * * *");
    assertThat(schedule.getPolicy().getOverlap())
        .isEqualTo(ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
    assertThat(schedule.getPolicy().getCatchupWindow()).isEqualTo(Duration.ofDays(1));
    assertThat(schedule.getState().isPaused()).isFalse();
    ScheduleActionStartWorkflow action = (ScheduleActionStartWorkflow) schedule.getAction();
    assertThat(action.getWorkflowType()).isEqualTo(ReconciliationWorkflow.TYPE);
    assertThat(action.getOptions().getTaskQueue()).isEqualTo("billing");
    assertThat(action.getOptions().getWorkflowId()).isEqualTo("billing-reconciliation");

    // The next start: it exists (and an operator paused it in the UI); the new cron applies, the
    // pause stays.
    recording.exists = true;
    ReconciliationSettings hourly =
        new ReconciliationSettings(true, "0 * * * *", 2, "billing-reconciliation");
    new ReconciliationScheduling(null, "billing", hourly, () -> true, recording::client).start();
    Schedule paused =
        Schedule.newBuilder(schedule)
            .setState(ScheduleState.newBuilder().setPaused(true).setNote("paused by ops").build())
            .build();
    ScheduleUpdate update =
        recording.updater.apply(
            new ScheduleUpdateInput(
                new ScheduleDescription(
                    "billing-reconciliation",
                    null,
                    paused,
                    Map.of(),
                    SearchAttributes.EMPTY,
                    Map.of(),
                    null)));
    assertThat(update.getSchedule().getSpec().getCronExpressions()).containsExactly("0 * * * *");
    assertThat(update.getSchedule().getState().isPaused()).isTrue();
    assertThat(update.getSchedule().getState().getNote()).isEqualTo("paused by ops");
  }

  @Test
  void disabledSchedulesNothingAndABadCronIsRefusedAtStartUp() {
    RecordingSchedules recording = new RecordingSchedules();
    ReconciliationScheduling off =
        new ReconciliationScheduling(
            null,
            "billing",
            new ReconciliationSettings(false, null, null, null),
            () -> true,
            recording::client);
    off.start();
    assertThat(off.mode()).isEqualTo(ReconciliationScheduling.Mode.DISABLED);
    assertThat(recording.created).isEmpty();
    assertThatThrownBy(() -> new ReconciliationSettings(true, "@every 5s", 3, null))
        .hasMessageContaining("five fields");
    assertThatThrownBy(() -> new ReconciliationSettings(true, null, 0, null))
        .hasMessage("lookbackDays must be between 1 and 30, got 0");
  }

  private static List<ReconciliationSummary> awaitReports(
      ReconciliationReports reports, Instant now, int count) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      List<ReconciliationSummary> done =
          reports.list(now, PageRequest.first(10)).items().stream()
              .filter(r -> r.status() != ReconciliationSummary.Status.RUNNING)
              .toList();
      if (done.size() >= count || System.nanoTime() > deadline) {
        return done;
      }
      try {
        Thread.sleep(50); // activities run in real time once their timer fired
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  /** A schedule client that records what it is asked (only the calls the scheduling makes). */
  static final class RecordingSchedules {
    final List<String> createdIds = new ArrayList<>();
    final List<Schedule> created = new ArrayList<>();
    Functions.Func1<ScheduleUpdateInput, ScheduleUpdate> updater;
    boolean exists;

    @SuppressWarnings("unchecked")
    ScheduleClient client() {
      ScheduleHandle handle =
          (ScheduleHandle)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {ScheduleHandle.class},
                  (proxy, method, args) -> {
                    if (method.getName().equals("update")) {
                      updater = (Functions.Func1<ScheduleUpdateInput, ScheduleUpdate>) args[0];
                      return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                  });
      return (ScheduleClient)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {ScheduleClient.class},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "createSchedule" -> {
                      if (exists) {
                        throw new ScheduleAlreadyRunningException(null);
                      }
                      createdIds.add((String) args[0]);
                      created.add((Schedule) args[1]);
                      yield handle;
                    }
                    case "getHandle" -> handle;
                    default -> throw new UnsupportedOperationException(method.getName());
                  });
    }
  }
}
