package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import dev.billing.domain.Subscription;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowOptions;
import java.time.Instant;

/**
 * How every start of a subscription's workflow is addressed and shown: its id, its task queue, and
 * the operators' search attributes and memo set in the start request (so they cost no workflow
 * action). Callers differ only in what may already exist under the id.
 */
public final class SubscriptionStartOptions {
  private SubscriptionStartOptions() {}

  /**
   * @param pastDueSince when the record says it became past due; null when it is not
   * @param reuse whether a closed run under the id may be followed by a new one
   * @param conflict what to do when a run under the id is still open
   */
  public static WorkflowOptions of(
      Subscription subscription,
      String taskQueue,
      Instant pastDueSince,
      WorkflowIdReusePolicy reuse,
      WorkflowIdConflictPolicy conflict) {
    return WorkflowOptions.newBuilder()
        .setWorkflowId(BillingIds.workflowId(subscription.subscriptionId()))
        .setTaskQueue(taskQueue)
        .setWorkflowIdReusePolicy(reuse)
        .setWorkflowIdConflictPolicy(conflict)
        .setTypedSearchAttributes(
            SubscriptionVisibility.startAttributes(subscription, pastDueSince))
        .setMemo(SubscriptionVisibility.memo(subscription))
        .build();
  }
}
