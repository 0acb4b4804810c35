package dev.billing.api.support.fakes;

import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.domain.BillingIds;
import dev.billing.domain.PaymentEvent;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowNotFoundException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@code paymentEvent} signal: delivered to a running workflow of the fake, refused otherwise.
 */
public final class FakePaymentEventSignals implements PaymentEventIntake.Signals {
  private final FakeSubscriptionWorkflows workflows;

  /** Every event delivered, in order. */
  public final List<PaymentEvent> delivered = new CopyOnWriteArrayList<>();

  public FakePaymentEventSignals(FakeSubscriptionWorkflows workflows) {
    this.workflows = workflows;
  }

  @Override
  public void send(PaymentEvent event) {
    if (!workflows.running(event.subscriptionId())) {
      throw new WorkflowNotFoundException(
          WorkflowExecution.newBuilder()
              .setWorkflowId(BillingIds.workflowId(event.subscriptionId()))
              .build(),
          "SubscriptionWorkflow",
          null);
    }
    delivered.add(event);
  }

  /**
   * The fake keeps no record to start a run from: an ended subscription's return stays unsignalled
   * here (the real path is tested in activities and on the test stack).
   */
  @Override
  public boolean startEnded(PaymentEvent event) {
    return false;
  }
}
