package dev.billing.worker;

import dev.billing.activities.NotificationActivitiesImpl;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.PolicyActivitiesImpl;
import dev.billing.activities.RecordActivitiesImpl;
import dev.billing.activities.ReminderActivitiesImpl;
import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.TemporalPaymentEventSignals;
import dev.billing.activities.reconciliation.ReconciliationActivitiesImpl;
import dev.billing.activities.reconciliation.TemporalSubscriptionWorkflowOps;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.store.BillingStore;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.ReconciliationQueries;
import dev.billing.store.ReconciliationReports;
import dev.billing.store.TableNames;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.reconciliation.ReconciliationWorkflowImpl;
import dev.billing.workflows.reconciliation.SubscriptionRepairWorkflowImpl;
import dev.billing.workflows.subscription.SubscriptionWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import io.temporal.worker.WorkflowImplementationOptions;
import java.time.InstantSource;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Registers the subscription workflow and its activities (and, with {@link
 * #registerReconciliation}, the reconciliation workflow and its steps) on a task queue, and the
 * payment activities on the rate-limited queue beside it ({@link TaskQueues#payments}). The same
 * wiring serves the worker process, the embedded dev stack and the tests, so what they run is what
 * production runs.
 */
public final class BillingWorker {
  private BillingWorker() {}

  /**
   * The adapters the activities drive.
   *
   * @param notifier delivers notices and reminders (their activities retry it)
   * @param dunning the policy a period snapshots when its first attempt fails
   * @param receiptNotifier delivers the receipt RecordChange mails after its commit; should fail
   *     fast ({@link EmailNotifiers#RECEIPT_TIMEOUT})
   */
  public record Adapters(
      BillingStore store,
      PaymentGateway gateway,
      Notifier notifier,
      DunningPolicy dunning,
      Notifier receiptNotifier,
      DeliveryHandoff delivery) {

    /** Without delivery of merchant events: they stay owed in the outbox. */
    public Adapters(
        BillingStore store,
        PaymentGateway gateway,
        Notifier notifier,
        DunningPolicy dunning,
        Notifier receiptNotifier) {
      this(store, gateway, notifier, dunning, receiptNotifier, DeliveryHandoff.NONE);
    }

    /**
     * The same adapters, handing every committed change's events to {@code delivery} ({@link
     * dev.billing.worker.delivery.EventDelivery#handoff}).
     */
    public Adapters withDelivery(DeliveryHandoff delivery) {
      return new Adapters(store, gateway, notifier, dunning, receiptNotifier, delivery);
    }

    /** One notifier for everything (tests whose notifier answers at once). */
    public Adapters(
        BillingStore store, PaymentGateway gateway, Notifier notifier, DunningPolicy dunning) {
      this(store, gateway, notifier, dunning, notifier);
    }

    public Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier) {
      this(store, gateway, notifier, DunningPolicy.DEFAULT);
    }

    /** Real email through {@code notifiers}. */
    public Adapters(
        BillingStore store,
        PaymentGateway gateway,
        EmailNotifiers notifiers,
        DunningPolicy dunning) {
      this(store, gateway, notifiers.notices(), dunning, notifiers.receipts());
    }
  }

  /**
   * Payment activities started per second on their queue by default: a bit under the gateway's
   * limit (the sandbox's and Stripe's test mode: 25 requests/s), leaving room for the
   * reconciliation's reads and the dev stack's event polling, which reach the gateway outside that
   * queue.
   */
  public static final double DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND = 20;

  /** No limit on the payment activities: for a harness whose gateway has none (the benchmark). */
  public static final double UNLIMITED = Double.POSITIVE_INFINITY;

  /**
   * {@link #create(WorkflowClient, String, Adapters, double, WorkerInterceptor...)} at the default
   * rate.
   */
  public static WorkerFactory create(
      WorkflowClient client,
      String taskQueue,
      Adapters adapters,
      WorkerInterceptor... interceptors) {
    return create(client, taskQueue, adapters, DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND, interceptors);
  }

  /** Creates the factory with the billing workers registered; call {@code start()} on it. */
  public static WorkerFactory create(
      WorkflowClient client,
      String taskQueue,
      Adapters adapters,
      double paymentActivitiesPerSecond,
      WorkerInterceptor... interceptors) {
    WorkerFactory factory =
        WorkerFactory.newInstance(
            client, WorkerFactoryOptions.newBuilder().setWorkerInterceptors(interceptors).build());
    register(
        factory,
        taskQueue,
        WorkerOptions.getDefaultInstance(),
        adapters,
        paymentActivitiesPerSecond);
    return factory;
  }

  /**
   * Adds the reconciliation workflows (the daily run, the one-subscription repair) and their steps
   * to a worker (on the billing task queue: the same processes serve both, and a restart they make
   * lands where the subscription workflows run).
   */
  public static void registerReconciliation(
      Worker worker, ReconciliationActivitiesImpl.Dependencies dependencies) {
    worker.registerWorkflowImplementationTypes(
        ReconciliationWorkflowImpl.class, SubscriptionRepairWorkflowImpl.class);
    worker.registerActivitiesImplementations(new ReconciliationActivitiesImpl(dependencies));
  }

  /**
   * What the reconciliation steps work on, over the process's DynamoDB client and Temporal client.
   *
   * @param provider the name the gateway's events are stored under ("sandbox", "stripe")
   * @param clock "now" for a run started from the record (the dev stack's follows the test server)
   * @param onFinding told of every finding (the metrics count them); may be null
   */
  public static ReconciliationActivitiesImpl.Dependencies reconciliation(
      DynamoDbClient dynamo,
      TableNames tables,
      DynamoBillingStore store,
      byte[] pageTokenKey,
      WorkflowClient client,
      String taskQueue,
      PaymentGateway gateway,
      String provider,
      DunningPolicy dunning,
      InstantSource clock,
      Consumer<Finding> onFinding) {
    ReconciliationQueries queries = new ReconciliationQueries(store);
    return new ReconciliationActivitiesImpl.Dependencies(
        store,
        queries,
        new ReconciliationReports(dynamo, tables.billing(), pageTokenKey),
        new PaymentEventStore(dynamo, tables.paymentEvents(), pageTokenKey),
        new TemporalSubscriptionWorkflowOps(
            client, taskQueue, TemporalPaymentEventSignals.Records.of(queries), clock),
        gateway,
        provider,
        dunning,
        onFinding);
  }

  /** {@link #register(WorkerFactory, String, WorkerOptions, Adapters, double)}, defaults. */
  public static Worker register(WorkerFactory factory, String taskQueue, Adapters adapters) {
    return register(
        factory,
        taskQueue,
        WorkerOptions.getDefaultInstance(),
        adapters,
        DEFAULT_PAYMENT_ACTIVITIES_PER_SECOND);
  }

  /**
   * Registers the subscription workflow and its activities on {@code taskQueue}, except the payment
   * activities, which go to {@link TaskQueues#payments} of it at most {@code
   * paymentActivitiesPerSecond}: the gateway answers more with 429s, and each would cost a retry.
   *
   * @param options of both workers (the payment worker's rate limits set here)
   * @return the worker of {@code taskQueue}, for {@link #registerReconciliation}
   */
  public static Worker register(
      WorkerFactory factory,
      String taskQueue,
      WorkerOptions options,
      Adapters adapters,
      double paymentActivitiesPerSecond) {
    return register(
        factory,
        taskQueue,
        options,
        WorkflowImplementationOptions.getDefaultInstance(),
        adapters,
        paymentActivitiesPerSecond);
  }

  /**
   * {@link #register(WorkerFactory, String, WorkerOptions, Adapters, double)} with the workflow's
   * implementation options: tests shorten an activity's timeouts with them (per activity type).
   */
  public static Worker register(
      WorkerFactory factory,
      String taskQueue,
      WorkerOptions options,
      WorkflowImplementationOptions workflowOptions,
      Adapters adapters,
      double paymentActivitiesPerSecond) {
    Worker worker = factory.newWorker(taskQueue, options);
    worker.registerWorkflowImplementationTypes(workflowOptions, SubscriptionWorkflowImpl.class);
    MessageTemplates templates = new MessageTemplates();
    worker.registerActivitiesImplementations(
        new RecordActivitiesImpl(
            adapters.store(), adapters.receiptNotifier(), templates, adapters.delivery()),
        new ReminderActivitiesImpl(
            adapters.notifier(), templates, adapters.store(), adapters.delivery()),
        new NotificationActivitiesImpl(adapters.notifier(), templates),
        new PolicyActivitiesImpl(adapters.dunning()));
    factory
        .newWorker(
            TaskQueues.payments(taskQueue),
            paymentWorkerOptions(options, paymentActivitiesPerSecond))
        .registerActivitiesImplementations(new PaymentActivitiesImpl(adapters.gateway()));
    return worker;
  }

  /**
   * Enough pollers for the rate at 100 ms a poll round trip, and no more: every poll waiting at the
   * server may return at once when a billing day starts, adding to the burst the gateway sees.
   */
  static int pollers(double perSecond) {
    return (int) Math.max(2, Math.ceil(perSecond / 10));
  }

  /**
   * The task-queue limit is Temporal's, across all workers of the queue; the same per-worker limit
   * makes it hold where the server ignores task-queue limits (the Java test server of the dev stack
   * and tests), and never binds tighter than the queue's with one worker. Both bound when tasks are
   * handed out, not when the gateway is called: tasks handed out a moment apart may call it closer
   * together. The margin under the gateway's limit absorbs that, and a 429 past it is retried with
   * the same key like any gateway error.
   */
  static WorkerOptions paymentWorkerOptions(WorkerOptions options, double perSecond) {
    if (!(perSecond > 0)) {
      throw new IllegalArgumentException("paymentActivitiesPerSecond must be positive");
    }
    if (perSecond == UNLIMITED) {
      return options;
    }
    return WorkerOptions.newBuilder(options)
        .setMaxTaskQueueActivitiesPerSecond(perSecond)
        .setMaxWorkerActivitiesPerSecond(perSecond)
        .setMaxConcurrentActivityTaskPollers(pollers(perSecond))
        .build();
  }
}
