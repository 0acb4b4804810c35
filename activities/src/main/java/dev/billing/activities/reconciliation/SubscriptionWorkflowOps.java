package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.workflows.SubscriptionInput;
import java.time.Instant;

/**
 * What reconciliation does to subscription workflows; Temporal in production, a fake in some tests.
 */
public interface SubscriptionWorkflowOps extends PaymentEventIntake.Signals {

  /** DescribeWorkflowExecution of {@code subscription-<id>} (the latest run). */
  WorkflowView describe(String subscriptionId);

  /**
   * Starts {@code subscription-<id>} again with {@code input}, on the configured task queue, with
   * the subscription's search attributes and memo. Refused while a run is open (a restart never
   * replaces a running workflow), allowed after a closed one.
   *
   * @param pastDueSince shown as PastDueSince when the subscription is PAST_DUE; may be null
   * @return false when a run is open after all (someone restarted it meanwhile)
   */
  boolean restart(SubscriptionInput input, Instant pastDueSince);

  /**
   * Whether the running workflow's current run has already received the payment event with this id.
   * Reads the run's history (bounded: subscription workflows continue as new), so it is asked only
   * before a signal a run is about to send.
   */
  boolean received(String subscriptionId, String eventId);
}
