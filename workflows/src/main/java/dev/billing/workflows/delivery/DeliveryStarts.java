package dev.billing.workflows.delivery;

import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.util.List;

/**
 * Signal-with-start of a subscription's delivery workflow: the signal reaches the running one, or
 * starts a new run when none runs (every run ends once its queues are empty). The one way in for
 * the record activity, the sweep and the API, so all of them start it alike.
 */
public final class DeliveryStarts {
  private DeliveryStarts() {}

  /**
   * @param deliveriesQueue {@code TaskQueues.deliveries(billingQueue)}
   */
  public static void eventsRecorded(
      WorkflowClient client, String deliveriesQueue, String subscriptionId, List<String> ids) {
    DeliveryWorkflow workflow = stub(client, deliveriesQueue, subscriptionId);
    BatchRequest start = client.newSignalWithStartRequest();
    start.add(workflow::run, DeliveryInput.start(subscriptionId));
    start.add(workflow::eventsRecorded, new EventsRecorded(ids));
    client.signalWithStart(start);
  }

  public static void redeliver(
      WorkflowClient client, String deliveriesQueue, String subscriptionId, Redelivery redelivery) {
    DeliveryWorkflow workflow = stub(client, deliveriesQueue, subscriptionId);
    BatchRequest start = client.newSignalWithStartRequest();
    start.add(workflow::run, DeliveryInput.start(subscriptionId));
    start.add(workflow::redeliver, redelivery);
    client.signalWithStart(start);
  }

  private static DeliveryWorkflow stub(
      WorkflowClient client, String deliveriesQueue, String subscriptionId) {
    return client.newWorkflowStub(
        DeliveryWorkflow.class,
        WorkflowOptions.newBuilder()
            .setWorkflowId(DeliveryWorkflow.workflowId(subscriptionId))
            .setTaskQueue(deliveriesQueue)
            .setWorkflowIdReusePolicy(
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
            .build());
  }
}
