package dev.billing.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.TaskQueues;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The payment activities run on their own queue, whose worker carries the gateway's rate limit. */
class BillingWorkerTest {
  private static final Instant START = Instant.parse("2031-03-01T00:00:00Z");
  private static final LocalDate DUE = LocalDate.of(2031, 3, 10);

  @Test
  void thePaymentWorkerIsLimitedOnItsQueueAndPerWorker() {
    WorkerOptions options =
        BillingWorker.paymentWorkerOptions(
            WorkerOptions.newBuilder().setMaxConcurrentActivityExecutionSize(7).build(), 20);

    assertThat(options.getMaxTaskQueueActivitiesPerSecond()).isEqualTo(20.0);
    assertThat(options.getMaxWorkerActivitiesPerSecond()).isEqualTo(20.0);
    assertThat(options.getMaxConcurrentActivityExecutionSize()).isEqualTo(7);
    assertThat(options.getMaxConcurrentActivityTaskPollers()).isEqualTo(2);
    assertThat(BillingWorker.pollers(100)).isEqualTo(10);
    WorkerOptions unlimited =
        BillingWorker.paymentWorkerOptions(
            WorkerOptions.getDefaultInstance(), BillingWorker.UNLIMITED);
    assertThat(unlimited.getMaxTaskQueueActivitiesPerSecond()).isZero(); // Temporal's "no limit"
    assertThatThrownBy(
            () -> BillingWorker.paymentWorkerOptions(WorkerOptions.getDefaultInstance(), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @Timeout(60)
  void chargesAreScheduledOnThePaymentQueueWhoseWorkerCarriesTheLimit() throws Exception {
    LocalDynamoDb local = LocalDynamoDb.start();
    TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(START).build());
    try {
      BillingSearchAttributes.ALL.forEach(
          k -> env.registerSearchAttribute(k.getName(), k.getValueType()));
      var store = local.store(local.createTables());
      SandboxGateway sandbox =
          new SandboxGateway(() -> Instant.ofEpochMilli(env.currentTimeMillis()));
      BillingWorker.register(
          env.getWorkerFactory(),
          TaskQueues.BILLING,
          WorkerOptions.getDefaultInstance(),
          new BillingWorker.Adapters(store, sandbox, new OutboxNotifier()),
          12.5);
      env.start();

      assertThat(
              env.getWorkerFactory()
                  .getWorker("billing-payments")
                  .getWorkerOptions()
                  .getMaxTaskQueueActivitiesPerSecond())
          .isEqualTo(12.5);
      assertThat(
              env.getWorkerFactory()
                  .getWorker(TaskQueues.BILLING)
                  .getWorkerOptions()
                  .getMaxTaskQueueActivitiesPerSecond())
          .isZero();

      SubscriptionWorkflow workflow =
          env.getWorkflowClient()
              .newWorkflowStub(
                  SubscriptionWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId(BillingIds.workflowId("sub-q"))
                      .setTaskQueue(TaskQueues.BILLING)
                      .build());
      String firstRun =
          WorkflowClient.start(workflow::run, new SubscriptionInput(subscription(), false))
              .getRunId();
      env.sleep(Duration.ofDays(12));
      await("the first charge")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> !sandbox.charges().isEmpty());

      assertThat(sandbox.charges()).hasSize(1);
      List<HistoryEvent> scheduled = scheduledActivities(env.getWorkflowClient(), firstRun);
      assertThat(scheduled)
          .filteredOn(
              e ->
                  e.getActivityTaskScheduledEventAttributes()
                      .getActivityType()
                      .getName()
                      .equals("ChargePaymentMethod"))
          .isNotEmpty()
          .allSatisfy(
              e ->
                  assertThat(e.getActivityTaskScheduledEventAttributes().getTaskQueue().getName())
                      .isEqualTo("billing-payments"));
      assertThat(scheduled)
          .filteredOn(
              e ->
                  e.getActivityTaskScheduledEventAttributes()
                      .getActivityType()
                      .getName()
                      .equals("RecordChange"))
          .isNotEmpty()
          .allSatisfy(
              e ->
                  assertThat(e.getActivityTaskScheduledEventAttributes().getTaskQueue().getName())
                      .isEqualTo(TaskQueues.BILLING));
    } finally {
      env.close();
      local.close();
    }
  }

  /** Every activity scheduled by the workflow, across its runs (it continues as new). */
  private static List<HistoryEvent> scheduledActivities(WorkflowClient client, String runId) {
    List<HistoryEvent> scheduled = new ArrayList<>();
    while (runId != null) {
      List<HistoryEvent> events =
          client.fetchHistory(BillingIds.workflowId("sub-q"), runId).getHistory().getEventsList();
      runId = null;
      for (HistoryEvent e : events) {
        if (e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
          scheduled.add(e);
        } else if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW) {
          runId = e.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId();
        }
      }
    }
    return scheduled;
  }

  private static Subscription subscription() {
    BillingSchedule schedule =
        BillingSchedule.startingOnOrAfter(DUE, DUE.getDayOfMonth(), Term.MONTHLY, "UTC", 3);
    return new Subscription(
        "acc-q",
        "sub-q",
        "pro-monthly",
        Money.parse("9.99", "USD"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        schedule,
        SubscriptionStatus.ACTIVE,
        1,
        schedule.reminderDate(1),
        schedule.dueDate(1),
        null,
        null,
        START,
        0,
        "request-hash");
  }
}
