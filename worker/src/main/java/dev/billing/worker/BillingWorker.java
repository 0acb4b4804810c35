package dev.billing.worker;

import dev.billing.activities.NotificationActivitiesImpl;
import dev.billing.activities.PaymentActivitiesImpl;
import dev.billing.activities.PolicyActivitiesImpl;
import dev.billing.activities.RecordActivitiesImpl;
import dev.billing.activities.ReminderActivitiesImpl;
import dev.billing.activities.notifications.MessageTemplates;
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
   * @param notifier delivers notices and reminders (their activities retry it)
   * @param dunning the policy a period snapshots when its first attempt fails
   * @param receiptNotifier delivers the receipt RecordChange mails after its commit; should fail
   *     fast ({@link EmailNotifiers#RECEIPT_TIMEOUT})
   */
  public record Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier,
      DunningPolicy dunning, Notifier receiptNotifier) {

    /** One notifier for everything (tests whose notifier answers at once). */
    public Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier, DunningPolicy dunning) {
      this(store, gateway, notifier, dunning, notifier);
    }

    public Adapters(BillingStore store, PaymentGateway gateway, Notifier notifier) {
      this(store, gateway, notifier, DunningPolicy.DEFAULT);
    }

    /** Real email through {@code notifiers}. */
    public Adapters(BillingStore store, PaymentGateway gateway, EmailNotifiers notifiers,
        DunningPolicy dunning) {
      this(store, gateway, notifiers.notices(), dunning, notifiers.receipts());
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
    MessageTemplates templates = new MessageTemplates();
    worker.registerActivitiesImplementations(
        new RecordActivitiesImpl(adapters.store(), adapters.receiptNotifier(), templates),
        new PaymentActivitiesImpl(adapters.gateway()),
        new ReminderActivitiesImpl(adapters.notifier(), templates, adapters.store()),
        new NotificationActivitiesImpl(adapters.notifier(), templates),
        new PolicyActivitiesImpl(adapters.dunning()));
  }
}
