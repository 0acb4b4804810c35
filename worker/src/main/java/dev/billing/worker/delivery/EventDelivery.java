package dev.billing.worker.delivery;

import dev.billing.activities.delivery.DeliveryActivitiesImpl;
import dev.billing.activities.delivery.DeliveryAddresses;
import dev.billing.activities.delivery.DeliveryDependencies;
import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.activities.delivery.EndpointDeliveryHandoff;
import dev.billing.activities.delivery.EndpointDisabling;
import dev.billing.activities.delivery.EventSweepActivitiesImpl;
import dev.billing.activities.delivery.HttpWebhookPoster;
import dev.billing.activities.delivery.TemporalDeliverySignals;
import dev.billing.activities.delivery.WebhookPoster;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.EventDeliveryStore;
import dev.billing.store.endpoints.WebhookEndpointStore;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.delivery.DeliveryWorkflowImpl;
import dev.billing.workflows.delivery.EventSweepWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.InstantSource;
import java.util.function.Consumer;

/**
 * The delivery of merchant events on one stack (ADR 0012): the hand-off the record activities call
 * after each commit, and the worker of the deliveries task queue (the delivery and sweep workflows
 * and their activities). Its own queue, so a slow endpoint only ever holds up deliveries.
 *
 * @param handoff for {@code BillingWorker.Adapters.withDelivery}
 */
public record EventDelivery(
    DeliveryHandoff handoff, DeliveryDependencies activities, EventSweepActivitiesImpl sweep) {

  /**
   * @param endpointKey the API's page-token secret: the endpoints' signing secrets are sealed under
   *     a key derived from it, and delivery must open them
   * @param allowLoopback only the dev stack: its endpoints are on localhost
   * @param clock the time attempts are recorded at
   */
  public static EventDelivery of(
      DynamoBillingStore store,
      byte[] endpointKey,
      WorkflowClient client,
      String taskQueue,
      boolean allowLoopback,
      InstantSource clock) {
    return of(store, endpointKey, client, taskQueue, allowLoopback, clock, new HttpWebhookPoster());
  }

  public static EventDelivery of(
      DynamoBillingStore store,
      byte[] endpointKey,
      WorkflowClient client,
      String taskQueue,
      boolean allowLoopback,
      InstantSource clock,
      WebhookPoster poster) {
    WebhookEndpointStore endpoints =
        new WebhookEndpointStore(store.client(), store.tables().billing(), endpointKey);
    EventDeliveryStore deliveries = new EventDeliveryStore(store, endpointKey);
    TemporalDeliverySignals signals =
        new TemporalDeliverySignals(client, TaskQueues.deliveries(taskQueue));
    return new EventDelivery(
        new EndpointDeliveryHandoff(endpoints, signals),
        new DeliveryDependencies(
            deliveries, endpoints, poster, new DeliveryAddresses(allowLoopback), clock),
        new EventSweepActivitiesImpl(deliveries, endpoints, signals));
  }

  /**
   * This delivery disabling endpoints that failed for {@code rule}'s time, telling {@code
   * onDisabled} the id of each it disabled.
   */
  public EventDelivery withDisabling(EndpointDisabling rule, Consumer<String> onDisabled) {
    return new EventDelivery(handoff, activities.withDisabling(rule, onDisabled), sweep);
  }

  /** Registers the deliveries task queue's worker beside {@code taskQueue}'s. */
  public Worker register(WorkerFactory factory, String taskQueue) {
    Worker worker = factory.newWorker(TaskQueues.deliveries(taskQueue));
    worker.registerWorkflowImplementationTypes(
        DeliveryWorkflowImpl.class, EventSweepWorkflowImpl.class);
    worker.registerActivitiesImplementations(new DeliveryActivitiesImpl(activities), sweep);
    return worker;
  }
}
