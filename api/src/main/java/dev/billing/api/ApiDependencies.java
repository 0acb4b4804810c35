package dev.billing.api;

import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.activities.payments.stripe.StripeChargeMethods;
import dev.billing.activities.payments.stripe.StripeSettings;
import dev.billing.activities.payments.stripe.StripeWebhookReads;
import dev.billing.api.auth.keys.ApiKeyStore;
import dev.billing.api.events.Redeliveries;
import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.api.ops.Reconciliations;
import dev.billing.api.subscriptions.SubscriptionCommands;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.api.webhooks.WebhookSettings;
import dev.billing.runtime.DynamoConnection;
import dev.billing.runtime.PageTokenKeys;
import dev.billing.runtime.ProcessConnections;
import dev.billing.store.BillingStore;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.EventDeliveryStore;
import dev.billing.store.MerchantEventStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.workflows.TaskQueues;
import io.dropwizard.core.setup.Environment;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * Everything the API's resources run against, built before any resource and handed to them. {@link
 * #connect} builds the production set; tests build one around fakes or a test stack.
 *
 * @param subscriptions the subscriptions' workflows: their only writer
 * @param reconciliations starts reconciliation runs and repairs of one subscription
 * @param paymentEvents where webhook deliveries are recorded
 * @param paymentEventSignals delivers a recorded payment event to its subscription's workflow, or
 *     starts an ended subscription's workflow again for a return
 * @param apiKeys where API keys are stored, hashed
 * @param webhookEndpoints where merchants' webhook endpoints are stored, their secrets sealed
 * @param events the merchant events, written by the worker with each change
 * @param deliveries the attempts of their delivery to the endpoints
 * @param redeliveries sends an event again through its subscription's delivery workflow
 * @param chargeMethods a disputed Charge's payment method type and a refunded Charge's refunds,
 *     read from Stripe; empty when unknown
 * @param clock "now" for the API: today's date for defaults and past checks, receipt expiry. In the
 *     dev stack it follows the Temporal test server's clock.
 * @param devOperatorKey the dev stack's operator key; empty in production, whatever its
 *     configuration says, since only {@link #connect} builds the production set
 */
public record ApiDependencies(
    BillingStore store,
    SubscriptionCommands subscriptions,
    Reconciliations reconciliations,
    ReconciliationReports reconciliationReports,
    PaymentEventStore paymentEvents,
    PaymentEventIntake.Signals paymentEventSignals,
    ApiKeyStore apiKeys,
    WebhookEndpointStore webhookEndpoints,
    MerchantEventStore events,
    EventDeliveryStore deliveries,
    Redeliveries redeliveries,
    StripeWebhookReads chargeMethods,
    InstantSource clock,
    Optional<String> devOperatorKey) {

  /**
   * Connects to DynamoDB and Temporal, both closed with the server and both with a health check,
   * and builds the API's dependencies on those connections.
   */
  public static ApiDependencies connect(ApiConfiguration config, Environment environment) {
    return connect(config, environment, InstantSource.system());
  }

  /** {@link #connect(ApiConfiguration, Environment)} with another clock (the dev stack's). */
  public static ApiDependencies connect(
      ApiConfiguration config, Environment environment, InstantSource clock) {
    ProcessConnections connections = ProcessConnections.open(config, environment, "api");
    byte[] pageTokenKey = PageTokenKeys.fromSecretOrRandom(config.pageTokenSecret);
    DynamoConnection dynamo = connections.dynamo();
    var client = connections.temporal().client();
    String taskQueue = config.temporal.taskQueue();
    DynamoBillingStore store = connections.store(pageTokenKey);
    return new ApiDependencies(
        store,
        new SubscriptionWorkflows(client, taskQueue),
        new ReconciliationRuns(client, taskQueue, clock),
        new ReconciliationReports(dynamo.client(), dynamo.tableNames().billing(), pageTokenKey),
        new PaymentEventStore(dynamo.client(), dynamo.tableNames().paymentEvents(), pageTokenKey),
        new TemporalPaymentEventSignals(
            client,
            taskQueue,
            TemporalPaymentEventSignals.Records.of(new ReconciliationQueries(store)),
            clock),
        new ApiKeyStore(dynamo.client(), dynamo.tableNames().billing()),
        new WebhookEndpointStore(dynamo.client(), dynamo.tableNames().billing(), pageTokenKey),
        new MerchantEventStore(store, pageTokenKey),
        new EventDeliveryStore(store, pageTokenKey),
        Redeliveries.of(client, TaskQueues.deliveries(taskQueue)),
        stripeChargeMethods(config.webhooks, System.getenv()),
        clock,
        Optional.empty());
  }

  /** The same dependencies with the dev stack's operator key. */
  public ApiDependencies withDevOperatorKey(String key) {
    return new ApiDependencies(
        store,
        subscriptions,
        reconciliations,
        reconciliationReports,
        paymentEvents,
        paymentEventSignals,
        apiKeys,
        webhookEndpoints,
        events,
        deliveries,
        redeliveries,
        chargeMethods,
        clock,
        Optional.of(key));
  }

  /**
   * Reads a disputed Charge's payment method from Stripe, which tells a returned bank debit from a
   * card chargeback, and a refunded Charge's refunds. With no STRIPE_API_KEY on the API (a
   * restricted key reading Charges and Refunds is enough), disputes are judged by their own fields
   * only, and an ACH return can be missed, and a dashboard refund is recorded under its total's
   * name rather than its own id.
   */
  private static StripeWebhookReads stripeChargeMethods(
      WebhookSettings webhooks, Map<String, String> env) {
    if (webhooks.stripeSecret() == null || webhooks.stripeSecret().isBlank()) {
      return StripeWebhookReads.NONE; // no Stripe endpoint
    }
    String key = env.get(StripeSettings.API_KEY_ENV);
    if (key == null || key.isBlank()) {
      LoggerFactory.getLogger(ApiDependencies.class)
          .warn(
              "{} is not set: Stripe disputes are judged"
                  + " without their charge, and a returned bank debit can be missed",
              StripeSettings.API_KEY_ENV);
      return StripeWebhookReads.NONE;
    }
    return new StripeChargeMethods(StripeSettings.fromEnvironment(env));
  }
}
