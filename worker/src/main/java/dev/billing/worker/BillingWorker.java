package dev.billing.worker;

import dev.billing.activities.NotificationActivitiesImpl;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.PolicyActivitiesImpl;
import dev.billing.activities.RecordActivitiesImpl;
import dev.billing.activities.ReminderActivitiesImpl;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.DunningPolicy;
import dev.billing.store.BillingStore;
import dev.billing.workflows.SubscriptionWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;

/**
 * Registers the subscription workflow and its activities on a task queue. The same wiring serves the
 * worker process, the embedded dev stack and the tests, so what they run is what production runs.
 */
public final class BillingWorker {
  private BillingWorker() {}

  /**
   * The adapters the activities drive.
   *
   * @param dunning the policy a period snapshots when its first attempt fails
   */
  public record Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier, DunningPolicy dunning) {

    public Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier) {
      this(store, gateway, notifier, DunningPolicy.DEFAULT);
    }
  }

  /** Creates the factory with one worker registered; call {@code start()} on it. */
  public static WorkerFactory create(WorkflowClient client, String taskQueue, Adapters adapters) {
    WorkerFactory factory = WorkerFactory.newInstance(client);
    register(factory.newWorker(taskQueue), adapters);
    return factory;
  }

  public static void register(Worker worker, Adapters adapters) {
    worker.registerWorkflowImplementationTypes(SubscriptionWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        new RecordActivitiesImpl(adapters.store()),
        new PaymentActivitiesImpl(adapters.gateway()),
        new ReminderActivitiesImpl(adapters.notifier(), adapters.store()),
        new NotificationActivitiesImpl(adapters.notifier()),
        new PolicyActivitiesImpl(adapters.dunning()));
  }
}
