package dev.billing.activities.reconciliation;

import dev.billing.activities.NotificationActivitiesImpl;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.PolicyActivitiesImpl;
import dev.billing.activities.RecordActivitiesImpl;
import dev.billing.activities.ReminderActivitiesImpl;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.domain.BillingIds;
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
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.testing.BackgroundClose;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.SubscriptionInput;
import dev.billing.workflows.SubscriptionVisibility;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.subscription.SubscriptionWorkflowImpl;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real thing on both sides: DynamoDB Local with the store's tables, Temporal's test server
 * (time skipping) running the subscription workflow with the real activities, and the sandbox
 * gateway on the server's clock. Subscriptions bill on the 2nd (UTC), no reminder, 9.99 USD.
 */
final class ReconciliationFixture implements AutoCloseable {
  static final String QUEUE = "billing";
  static final Money PRICE = new Money(999, "USD");
  static final PaymentMethod VISA = new PaymentMethod("pm_card_visa", "Visa •••• 4242");
  static final BillingSchedule ON_THE_2ND =
      new BillingSchedule(YearMonth.of(2026, 3), 2, Term.MONTHLY, "UTC", 0);
  private static final byte[] KEY =
      "reconciliation-test-page-key-32-bytes".getBytes(StandardCharsets.UTF_8);

  private final LocalDynamoDb local = LocalDynamoDb.start();
  final DynamoDbClient dynamo = local.client();
  final TableNames tables = TableNames.defaults();
  final DynamoBillingStore store;
  final ReconciliationQueries queries;
  final ReconciliationReports reports;
  final PaymentEventStore events;
  final TestWorkflowEnvironment env;
  final WorkflowClient client;
  final SandboxGateway sandbox;
  final TemporalSubscriptionWorkflowOps ops;
  final List<Finding> noticed = new ArrayList<>();

  ReconciliationFixture(String start) {
    local.createTables(tables);
    store = new DynamoBillingStore(dynamo, tables, StoreSettings.defaults(KEY));
    queries = new ReconciliationQueries(store);
    reports = new ReconciliationReports(dynamo, tables.billing(), KEY);
    events = new PaymentEventStore(dynamo, tables.paymentEvents(), KEY);
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse(start))
                // A query reaching a run restarted right after a terminate, while the test server
                // drops a workflow task of it, is answered only when sent again: after its RPC
                // deadline, 10 s by default (seen in about one run in three of the open-ended pause
                // test).
                .setWorkflowServiceStubsOptions(
                    WorkflowServiceStubsOptions.newBuilder()
                        .setRpcQueryTimeout(Duration.ofSeconds(2))
                        .build())
                .build());
    BillingSearchAttributes.ALL.forEach(
        k -> env.registerSearchAttribute(k.getName(), k.getValueType()));
    InstantSource clock = () -> Instant.ofEpochMilli(env.currentTimeMillis());
    sandbox = new SandboxGateway(clock);
    OutboxNotifier outbox = new OutboxNotifier();
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(SubscriptionWorkflowImpl.class);
    MessageTemplates templates = new MessageTemplates();
    worker.registerActivitiesImplementations(
        new RecordActivitiesImpl(store, outbox, templates),
        new ReminderActivitiesImpl(outbox, templates, store),
        new NotificationActivitiesImpl(outbox, templates),
        new PolicyActivitiesImpl(DunningPolicy.DEFAULT));
    // As BillingWorker registers them: the payment activities on their own queue.
    env.newWorker(TaskQueues.payments(QUEUE))
        .registerActivitiesImplementations(new PaymentActivitiesImpl(sandbox));
    env.start();
    client = env.getWorkflowClient();
    ops =
        new TemporalSubscriptionWorkflowOps(
            client, QUEUE, TemporalPaymentEventSignals.Records.of(queries), clock);
  }

  DriftCheck drift() {
    return new DriftCheck(
        store, queries, ops, sandbox, "sandbox", DunningPolicy.DEFAULT, DriftCheck.PAGE_SIZE);
  }

  ChargesCheck charges() {
    return new ChargesCheck(store, queries, ops, sandbox, "sandbox");
  }

  WebhookReplay replay() {
    return new WebhookReplay(sandbox, events, new PaymentEventIntake(events, ops), "sandbox");
  }

  /** The activities as the worker registers them, with small pages and budgets, called directly. */
  ReconciliationActivitiesImpl activities(int pageSize, int budget) {
    return new ReconciliationActivitiesImpl(
        new ReconciliationActivitiesImpl.Dependencies(
            store,
            queries,
            reports,
            events,
            ops,
            sandbox,
            "sandbox",
            DunningPolicy.DEFAULT,
            noticed::add),
        pageSize,
        budget,
        budget,
        () -> {});
  }

  FindingLog log(String reportId, Instant asOf) {
    return new FindingLog(reportId, asOf, noticed::add);
  }

  static Subscription requested(String account, String id) {
    return new Subscription(
        account,
        id,
        "pro-monthly",
        PRICE,
        "ana@example.com",
        VISA,
        ON_THE_2ND,
        SubscriptionStatus.ACTIVE,
        1,
        null,
        null,
        null,
        null,
        Instant.parse("2026-02-20T10:00:00Z"),
        0,
        "req-" + id);
  }

  /** Created as the API creates it: through its workflow, which records it. */
  SubscriptionWorkflow subscribe(String account, String id) {
    Subscription requested = requested(account, id);
    SubscriptionWorkflow workflow =
        client.newWorkflowStub(
            SubscriptionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(BillingIds.workflowId(id))
                .setTaskQueue(QUEUE)
                .setTypedSearchAttributes(SubscriptionVisibility.startAttributes(requested, null))
                .build());
    WorkflowClient.start(workflow::run, new SubscriptionInput(requested, false));
    workflow.created();
    return workflow;
  }

  /** A record as a workflow would have written it, with no workflow behind it. */
  Subscription recordOnly(String account, String id) {
    Subscription record = requested(account, id).scheduledFor(1).withVersion(1);
    store.createSubscription(
        new RecordInput(
            "create",
            null,
            record,
            HistoryEvent.SUBSCRIPTION_CREATED,
            Process.API,
            "api",
            "created",
            null,
            null,
            record.createdAt()));
    return record;
  }

  /**
   * A subscription whose workflow charged it and then cannot record the charge: someone wrote the
   * record outside its workflow (a higher version), so RecordChange fails StaleWrite and is retried
   * for ever. The workflow runs; the money moved; DynamoDB does not say so.
   */
  SubscriptionWorkflow stuckAfterCharge(
      String account, String id, SubscriptionStatus writtenStatus) {
    SubscriptionWorkflow workflow = subscribe(account, id);
    outOfBandWrite(account, id, writtenStatus);
    return workflow;
  }

  /** Writes the record at version 5 behind its workflow's back. */
  void outOfBandWrite(String account, String id, SubscriptionStatus status) {
    Subscription current = store.getSubscription(account, id).orElseThrow();
    store.updateSubscription(
        new RecordInput(
            "operator-edit",
            current,
            current.withStatus(status).withVersion(5),
            HistoryEvent.PAYMENT_METHOD_CHANGED,
            Process.API,
            "operator",
            "edited by hand",
            null,
            null,
            now()));
  }

  /** A charge made at the gateway directly, as a lost workflow run (or someone else) made it. */
  String chargeAtGateway(String subscriptionId, long cycle, int attempt) {
    return sandbox
        .charge(
            new GatewayChargeRequest(
                BillingIds.chargeKey(subscriptionId, cycle, attempt),
                PRICE,
                VISA.token(),
                "test",
                Map.of(
                    GatewayChargeRequest.SUBSCRIPTION_ID,
                    subscriptionId,
                    GatewayChargeRequest.CYCLE,
                    Long.toString(cycle))))
        .transactionId();
  }

  void runUntil(String instant) {
    Duration remaining = Duration.between(now(), Instant.parse(instant));
    if (!remaining.isNegative()) {
      env.sleep(remaining);
    }
  }

  Instant now() {
    return Instant.ofEpochMilli(env.currentTimeMillis());
  }

  /** The paymentEvent signals a workflow execution received (all runs), by event id. */
  List<String> signalledEventIds(String subscriptionId) {
    List<String> ids = new ArrayList<>();
    client.fetchHistory(BillingIds.workflowId(subscriptionId)).getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
        .forEach(
            e ->
                ids.add(
                    client
                        .getOptions()
                        .getDataConverter()
                        .fromPayloads(
                            0,
                            java.util.Optional.of(
                                e.getWorkflowExecutionSignaledEventAttributes().getInput()),
                            dev.billing.domain.PaymentEvent.class,
                            dev.billing.domain.PaymentEvent.class)
                        .eventId()));
    return ids;
  }

  @Override
  public void close() {
    BackgroundClose.close(
        () -> {
          env.close();
          local.close();
        });
  }
}
