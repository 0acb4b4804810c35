package dev.billing.api.webhooks;

import dev.billing.domain.BillingIds;
import dev.billing.domain.PaymentEvent;
import dev.billing.workflows.SubscriptionWorkflow;
import io.temporal.client.WorkflowClient;

/** Delivers a payment event to its subscription's workflow. */
public interface PaymentEventSignals {

  /**
   * @throws io.temporal.client.WorkflowNotFoundException when the subscription has no running
   *     workflow (never created, or ended)
   */
  void send(PaymentEvent event);

  /**
   * The {@code paymentEvent} signal to the workflow's current run (continue-as-new moves the run
   * along, the workflow id stays).
   */
  static PaymentEventSignals temporal(WorkflowClient client) {
    return event ->
        client
            .newWorkflowStub(
                SubscriptionWorkflow.class, BillingIds.workflowId(event.subscriptionId()))
            .paymentEvent(event);
  }
}
