package dev.billing.workflows;

import dev.billing.domain.Subscription;
import java.util.Objects;

/**
 * The input of one run of the subscription workflow.
 *
 * @param subscription the state to continue from; on the first run, the subscription as requested
 *     (version 0, not yet in DynamoDB)
 * @param recorded whether the subscription is already in the system of record
 * @param collections periods still being collected and what the previous run remembered about
 *     payments; empty on the first run (and absent from inputs written before it existed)
 */
public record SubscriptionInput(Subscription subscription, boolean recorded, CollectionState collections) {
  public SubscriptionInput {
    Objects.requireNonNull(subscription, "subscription");
    collections = collections == null ? CollectionState.EMPTY : collections;
  }

  public SubscriptionInput(Subscription subscription, boolean recorded) {
    this(subscription, recorded, CollectionState.EMPTY);
  }
}
