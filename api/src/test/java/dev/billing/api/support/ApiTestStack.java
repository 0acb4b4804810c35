package dev.billing.api.support;

import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.api.ApiDependencies;
import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.domain.DunningPolicy;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.MerchantEventStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.testing.LocalDynamoDb;
import dev.billing.worker.BillingWorker;
import dev.billing.workflows.BillingSearchAttributes;
import dev.billing.workflows.TaskQueues;
import io.dropwizard.lifecycle.Managed;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.Period;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real components the API runs against in tests: Temporal's time-skipping test server with the
 * production worker wiring, DynamoDB Local in-process with the production store, the sandbox
 * gateway and the outbox notifier. "Now" for everyone is the test server's clock.
 */
public final class ApiTestStack implements Managed {

  /** Workflow time when each stack starts: 10 March 2026, noon UTC. */
  public static final Instant START = Instant.parse("2026-03-10T12:00:00Z");

  public static final Period RECEIPT_RETENTION = Period.ofMonths(12);

  public final TestWorkflowEnvironment env;
  public final LocalDynamoDb dynamoLocal;
  public final DynamoBillingStore store;
  public final PaymentEventStore paymentEvents;
  public final ReconciliationReports reconciliationReports;
  public final InstantSource clock;
  public final SandboxGateway gateway;
  public final OutboxNotifier outbox;
  public final ApiKeyStore apiKeys;
  public final WebhookEndpointStore webhookEndpoints;
  public final MerchantEventStore events;
  public final dev.billing.store.EventDeliveryStore deliveries;

  /** Writes that took effect in DynamoDB, by anyone (API, worker, key store). */
  public final AtomicLong writes = new AtomicLong();

  /**
   * Subscriptions whose committed changes are not handed to delivery, as when the signal fails:
   * their events stay owed in the outbox until something else sends them.
   */
  public final Set<String> handoffLost = ConcurrentHashMap.newKeySet();

  /** Hand-offs left out for {@link #handoffLost}. */
  public final AtomicLong handoffsLost = new AtomicLong();

  /** The client every component of the stack uses; it counts {@link #writes}. */
  public final DynamoDbClient dynamo;

  /** Creates keys the way the operator command does, straight into the store. */
  public final ApiKeyService keyService;

  public ApiTestStack() {
    this(false);
  }

  /**
   * @param delivery whether merchant events are delivered to the webhook endpoints registered
   *     (loopback allowed, as in the dev stack): only on a stack of its own, since a stack shared
   *     by classes that register endpoints would post their events and move its clock with the
   *     retries
   */
  public ApiTestStack(boolean delivery) {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(START)
                .setUseTimeskipping(true)
                .build());
    BillingSearchAttributes.ALL.forEach(
        key -> env.registerSearchAttribute(key.getName(), key.getValueType()));
    clock = () -> Instant.ofEpochMilli(env.currentTimeMillis());

    dynamoLocal = LocalDynamoDb.start();
    TableNames tables = new TableNames("billing", "billing-history");
    dynamoLocal.createTables(tables);
    dynamo = WriteCounting.wrap(dynamoLocal.client(), writes);
    byte[] pageTokenKey = "api-test-page-token-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    store =
        new DynamoBillingStore(dynamo, tables, new StoreSettings(RECEIPT_RETENTION, pageTokenKey));
    paymentEvents = new PaymentEventStore(dynamo, tables.paymentEvents(), pageTokenKey);

    apiKeys = new ApiKeyStore(dynamo, tables.billing());

    webhookEndpoints = new WebhookEndpointStore(dynamo, tables.billing(), pageTokenKey);
    events = new MerchantEventStore(store, pageTokenKey);
    deliveries = new dev.billing.store.EventDeliveryStore(store, pageTokenKey);
    keyService = new ApiKeyService(apiKeys, InstantSource.system());

    reconciliationReports = new ReconciliationReports(dynamo, tables.billing(), pageTokenKey);

    gateway = new SandboxGateway(clock);
    outbox = new OutboxNotifier();
    var adapters = new BillingWorker.Adapters(store, gateway, outbox);
    if (delivery) {
      var eventDelivery =
          dev.billing.worker.delivery.EventDelivery.of(
              store, pageTokenKey, env.getWorkflowClient(), TaskQueues.BILLING, true, clock);
      DeliveryHandoff handoff = eventDelivery.handoff();
      adapters =
          adapters.withDelivery(
              change -> {
                if (handoffLost.contains(change.next().subscriptionId())) {
                  handoffsLost.incrementAndGet();
                } else {
                  handoff.committed(change);
                }
              });
      eventDelivery.register(env.getWorkerFactory(), TaskQueues.BILLING);
    }
    Worker worker = BillingWorker.register(env.getWorkerFactory(), TaskQueues.BILLING, adapters);
    BillingWorker.registerReconciliation(
        worker,
        BillingWorker.reconciliation(
            dynamo,
            tables,
            store,
            pageTokenKey,
            env.getWorkflowClient(),
            TaskQueues.BILLING,
            gateway,
            "sandbox",
            DunningPolicy.DEFAULT,
            clock,
            null));
    env.start();
  }

  /** The API's dependencies on this stack, as production builds them on its connections. */
  public ApiDependencies dependencies() {
    var client = env.getWorkflowClient();
    return new ApiDependencies(
        store,
        new SubscriptionWorkflows(client, TaskQueues.BILLING),
        new ReconciliationRuns(client, TaskQueues.BILLING, clock),
        reconciliationReports,
        paymentEvents,
        new TemporalPaymentEventSignals(
            client,
            TaskQueues.BILLING,
            TemporalPaymentEventSignals.Records.of(new ReconciliationQueries(store)),
            clock),
        apiKeys,
        webhookEndpoints,
        events,
        deliveries,
        dev.billing.api.events.Redeliveries.of(client, TaskQueues.deliveries(TaskQueues.BILLING)),
        charge -> Optional.empty(),
        clock,
        Optional.empty());
  }

  /**
   * Waits until no write has taken effect for {@code quiet}, for at most 10 s: on a shared stack
   * the work an earlier class set off (a charge right after a create, a repaired workflow) may
   * still be writing.
   */
  public void awaitNoWrites(Duration quiet) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    long seen = writes.get();
    while (System.nanoTime() < deadline) {
      Thread.sleep(quiet.toMillis());
      long now = writes.get();
      if (now == seen) {
        return;
      }
      seen = now;
    }
  }

  @Override
  public void stop() {
    env.close();
    dynamoLocal.close();
  }
}
