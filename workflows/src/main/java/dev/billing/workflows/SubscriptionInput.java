package dev.billing.workflows;

import dev.billing.domain.Subscription;
import java.util.Objects;

/**
 * The input of one run of the subscription workflow.
 *
 * @param subscription the state to continue from; on the first run, the subscription as requested
 *     (version 0, not yet in DynamoDB)
 * @param recorded whether the subscription is already in the system of record
 */
public record SubscriptionInput(Subscription subscription, boolean recorded) {
  public SubscriptionInput {
    Objects.requireNonNull(subscription, "subscription");
  }
}
