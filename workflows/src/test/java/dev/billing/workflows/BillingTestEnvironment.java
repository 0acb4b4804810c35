package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.subscription.SubscriptionRestart;
import dev.billing.workflows.subscription.SubscriptionWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.BatchRequest;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.SearchAttributes;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A time-skipping test server starting at a chosen instant, with the billing search attributes
 * registered, the workflow and {@link FakeBillingActivities} on the billing task queue.
 */
final class BillingTestEnvironment implements AutoCloseable {

  static final String ACCOUNT = "acc-7";
  static final String SKU = "PRO-MONTHLY";
  static final String EMAIL = "ada@example.com";
  static final PaymentMethod CARD = new PaymentMethod("pm_card_visa", "Visa •••• 4242");

  final TestWorkflowEnvironment env;
  final WorkflowClient client;
  final FakeBillingActivities fake = new FakeBillingActivities();

  private BillingTestEnvironment(Instant start) {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder().setInitialTime(start).build());
    for (SearchAttributeKey<?> key : BillingSearchAttributes.ALL) {
      env.registerSearchAttribute(key.getName(), key.getValueType());
    }
    Worker worker = env.newWorker(TaskQueues.BILLING);
    // Registered as production registers it (BillingWorker): default options, so a validator's
    // rejection reaches the client with its own type, exactly as the API sees it.
    worker.registerWorkflowImplementationTypes(SubscriptionWorkflowImpl.class);
    worker.registerActivitiesImplementations(fake);
    // The payment activities run on their own queue (BillingWorker registers them there).
    env.newWorker(TaskQueues.payments(TaskQueues.BILLING)).registerActivitiesImplementations(fake);
    env.start();
    client = env.getWorkflowClient();
  }

  static BillingTestEnvironment startingAt(String instant) {
    return new BillingTestEnvironment(Instant.parse(instant));
  }

  /** A subscription as the API hands it to the workflow: version 0, dates not filled in yet. */
  static Subscription requested(String subscriptionId, BillingSchedule schedule, String amount) {
    return new Subscription(
        ACCOUNT,
        subscriptionId,
        SKU,
        Money.parse(amount, "USD"),
        EMAIL,
        CARD,
        schedule,
        SubscriptionStatus.ACTIVE,
        1,
        null,
        null,
        null,
        null,
        Instant.parse("2027-11-20T10:15:30Z"),
        0,
        "req-hash-1");
  }

  /** A subscription as the API hands it over since 1.1.0: INCOMPLETE until its first charge. */
  static Subscription requestedIncomplete(
      String subscriptionId, BillingSchedule schedule, String amount) {
    return requested(subscriptionId, schedule, amount).withStatus(SubscriptionStatus.INCOMPLETE);
  }

  SubscriptionWorkflow start(Subscription requested) {
    return start(requested, SearchAttributes.EMPTY);
  }

  SubscriptionWorkflow start(Subscription requested, SearchAttributes searchAttributes) {
    return start(requested, searchAttributes, null);
  }

  SubscriptionWorkflow start(
      Subscription requested,
      SearchAttributes searchAttributes,
      java.util.Map<String, Object> memo) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(BillingIds.workflowId(requested.subscriptionId()))
                .setTaskQueue(TaskQueues.BILLING)
                .setTypedSearchAttributes(searchAttributes)
                .setMemo(memo)
                .build());
    WorkflowClient.start(workflow::run, new SubscriptionInput(requested, false));
    return workflow;
  }

  /**
   * Starts the workflow again from the record, as reconciliation's repair does after a lost run.
   */
  SubscriptionWorkflow restart(Subscription record, List<dev.billing.domain.Period> periods) {
    fake.storedAt(record.subscriptionId(), record.version());
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record, periods, dev.billing.domain.DunningPolicy.DEFAULT, now());
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(BillingIds.workflowId(record.subscriptionId()))
                .setTaskQueue(TaskQueues.BILLING)
                .setTypedSearchAttributes(SubscriptionVisibility.startAttributes(record, null))
                .build());
    WorkflowClient.start(workflow::run, input);
    return workflow;
  }

  /**
   * Sends an immediate upgrade to PRO-MAX at 19.99 USD as the API does (the request id is the
   * update id) and returns once the workflow accepted it, without waiting for its outcome: the
   * charge may get no answer or settle later.
   */
  void upgradeNowAccepted(SubscriptionWorkflow workflow, String requestId) {
    PlanChangeRequest upgrade =
        new PlanChangeRequest(
            "PRO-MAX",
            Money.parse("19.99", "USD"),
            PlanChangeRequest.Effective.NOW,
            "user:ada",
            requestId);
    WorkflowClient.startUpdate(
        workflow::changePlan,
        upgrade,
        UpdateOptions.newBuilder(SubscriptionState.class)
            .setUpdateId(requestId)
            .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
            .build());
  }

  /**
   * What the webhook endpoint does with a payment event about an ended subscription: starts the
   * workflow again from the record with the event (signal-with-start), then waits until that run
   * ends.
   *
   * @throws AssertionError when the record gives the event nothing to act on (no run is started)
   */
  void startAfterEnd(
      Subscription record, List<dev.billing.domain.Period> periods, PaymentEvent event) {
    SubscriptionInput input =
        SubscriptionRestart.afterEnd(record, periods, event, now())
            .orElseThrow(() -> new AssertionError("the event started no run"));
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                record,
                TaskQueues.BILLING,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    BatchRequest start = client.newSignalWithStartRequest();
    start.add(workflow::run, input);
    start.add(workflow::paymentEvent, event);
    client.signalWithStart(start);
    WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
  }

  /**
   * What the API does to reactivate a cancelled subscription: update-with-start of the workflow
   * from the record (ALLOW_DUPLICATE: the run ended; USE_EXISTING: an ended run still open takes
   * it), the request id as the update id. Returns the update's answer.
   */
  SubscriptionState reactivateAfterEnd(
      Subscription record, List<dev.billing.domain.Period> periods, ReactivateRequest request) {
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                record,
                TaskQueues.BILLING,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    io.temporal.client.WorkflowUpdateHandle<SubscriptionState> accepted =
        WorkflowClient.startUpdateWithStart(
            workflow::reactivate,
            request,
            UpdateOptions.newBuilder(SubscriptionState.class)
                .setUpdateId(request.requestId())
                .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
                .build(),
            new io.temporal.client.WithStartWorkflowOperation<>(
                workflow::run, SubscriptionRestart.ended(record, periods, now())));
    // Awaiting the result while the run waits would let the test server skip years ahead; a
    // second of workflow time lets the main thread apply it first.
    env.sleep(Duration.ofSeconds(1));
    return accepted.getResult();
  }

  /** A stub of the latest run, as the API addresses it: by workflow id only. */
  SubscriptionWorkflow existing(String subscriptionId) {
    return client.newWorkflowStub(
        SubscriptionWorkflow.class, BillingIds.workflowId(subscriptionId));
  }

  WorkflowStub untyped(String subscriptionId) {
    return client.newUntypedWorkflowStub(BillingIds.workflowId(subscriptionId));
  }

  /** Lets workflow time run (skipping) until at least {@code instant}; a no-op once it is past. */
  void runUntil(String instant) {
    Duration remaining = Duration.between(now(), Instant.parse(instant));
    if (remaining.isNegative()) {
      return;
    }
    env.sleep(remaining);
  }

  Instant now() {
    return Instant.ofEpochMilli(env.currentTimeMillis());
  }

  List<HistoryEvent> history(String subscriptionId, String runId) {
    return client.fetchHistory(BillingIds.workflowId(subscriptionId), runId).getEvents();
  }

  long count(List<HistoryEvent> events, EventType type) {
    return events.stream().filter(e -> e.getEventType() == type).count();
  }

  @Override
  public void close() {
    BackgroundClose.close(env);
  }
}
