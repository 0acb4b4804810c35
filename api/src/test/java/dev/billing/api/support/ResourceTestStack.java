package dev.billing.api.support;

import dev.billing.api.ApiDependencies;
import dev.billing.api.auth.keys.ApiKeyService;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.api.support.fakes.FakePaymentEventSignals;
import dev.billing.api.support.fakes.FakeReconciliations;
import dev.billing.api.support.fakes.FakeSubscriptionWorkflows;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.MerchantEventStore;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.testing.LocalDynamoDb;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What resource tests run the API against: the real stores on DynamoDB Local (conditional writes,
 * versions and page tokens as production has them) and fakes of the Temporal side. "Now" is where
 * {@link ApiTestStack}'s starts, and stays there.
 */
public final class ResourceTestStack implements AutoCloseable {

  public final LocalDynamoDb dynamoLocal;
  public final DynamoBillingStore store;
  public final PaymentEventStore paymentEvents;
  public final ReconciliationReports reconciliationReports;
  public final InstantSource clock = InstantSource.fixed(ApiTestStack.START);
  public final ApiKeyStore apiKeys;
  public final WebhookEndpointStore webhookEndpoints;
  public final MerchantEventStore events;
  public final dev.billing.store.EventDeliveryStore deliveries;

  /** "<event id> by <actor>" of every redelivery the API asked for. */
  public final java.util.List<String> redeliveries =
      java.util.Collections.synchronizedList(new java.util.ArrayList<>());

  /** Creates keys the way the operator command does, straight into the store. */
  public final ApiKeyService keyService;

  /** Writes that took effect in DynamoDB, by anyone (API, fake workflows, key store). */
  public final AtomicLong writes = new AtomicLong();

  public final DynamoDbClient dynamo;
  public final FakeSubscriptionWorkflows workflows;
  public final FakeReconciliations reconciliations;
  public final FakePaymentEventSignals signals;

  public ResourceTestStack() {
    dynamoLocal = LocalDynamoDb.start();
    TableNames tables =
        dynamoLocal.createTables(new TableNames("billing", "billing-history", "payment-events"));
    dynamo = WriteCounting.wrap(dynamoLocal.client(), writes);
    byte[] pageTokenKey = "api-test-page-token-secret-0123456789".getBytes(StandardCharsets.UTF_8);
    store =
        new DynamoBillingStore(
            dynamo, tables, new StoreSettings(ApiTestStack.RECEIPT_RETENTION, pageTokenKey));
    paymentEvents = new PaymentEventStore(dynamo, tables.paymentEvents(), pageTokenKey);
    reconciliationReports = new ReconciliationReports(dynamo, tables.billing(), pageTokenKey);
    apiKeys = new ApiKeyStore(dynamo, tables.billing());
    webhookEndpoints = new WebhookEndpointStore(dynamo, tables.billing(), pageTokenKey);
    events = new MerchantEventStore(store, pageTokenKey);
    deliveries = new dev.billing.store.EventDeliveryStore(store, pageTokenKey);
    keyService = new ApiKeyService(apiKeys, InstantSource.system());
    workflows = new FakeSubscriptionWorkflows(store, clock);
    reconciliations = new FakeReconciliations(clock);
    signals = new FakePaymentEventSignals(workflows);
  }

  /**
   * The subscription cancelled as its workflow would have recorded it, and its workflow ended: the
   * state of an ended subscription, for tests of what the API does with one.
   */
  public void cancelled(String accountId, String subscriptionId) {
    Subscription current = store.getSubscription(accountId, subscriptionId).orElseThrow();
    Subscription next =
        current.withStatus(SubscriptionStatus.CANCELLED).withVersion(current.version() + 1);
    store.updateSubscription(
        new RecordInput(
            "cancel",
            current,
            next,
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api",
            "cancelled",
            null,
            null,
            clock.instant()));
    workflows.end(subscriptionId);
  }

  /**
   * The subscription cancelled at {@code at} with the record the workflow writes: the cycle it
   * ended on as a CANCELLED period, at that instant (what a reactivation's window is judged from);
   * its workflow ended.
   */
  public void cancelledAt(String accountId, String subscriptionId, Instant at) {
    cancelledAt(accountId, subscriptionId, at, true);
  }

  /**
   * @param paidBefore whether the customer had paid a period before (else it ended before its first
   *     payment)
   */
  public void cancelledAt(String accountId, String subscriptionId, Instant at, boolean paidBefore) {
    Subscription current = store.getSubscription(accountId, subscriptionId).orElseThrow();
    Subscription next =
        current
            .withStatus(SubscriptionStatus.CANCELLED)
            .withLastPaymentAt(paidBefore ? at.minus(java.time.Duration.ofDays(20)) : null)
            .withNothingDue()
            .withVersion(current.version() + 1);
    Period ended =
        new Period(
            accountId,
            subscriptionId,
            current.cycle(),
            current.schedule().dueDate(current.cycle()),
            current.price(),
            PeriodStatus.CANCELLED,
            0,
            null,
            null,
            null,
            at);
    store.updateSubscription(
        new RecordInput(
            "cancel",
            current,
            next,
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api",
            "cancelled",
            ended,
            null,
            at));
    workflows.end(subscriptionId);
  }

  public ApiDependencies dependencies() {
    return new ApiDependencies(
        store,
        workflows,
        reconciliations,
        reconciliationReports,
        paymentEvents,
        signals,
        apiKeys,
        webhookEndpoints,
        events,
        deliveries,
        (subscriptionId, eventId, actor) -> redeliveries.add(eventId + " by " + actor),
        charge -> Optional.empty(),
        clock,
        Optional.empty());
  }

  @Override
  public void close() {
    dynamoLocal.close();
  }
}
