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
 * @param requestedBy on the first run, the principal that asked for the subscription (kept in the
 *     creation's history entry); null afterwards, and in inputs written before it existed
 * @param requests the client requests applied recently and those whose money is still unknown
 */
public record SubscriptionInput(
    Subscription subscription,
    boolean recorded,
    CollectionState collections,
    String requestedBy,
    RequestState requests) {
  public SubscriptionInput {
    Objects.requireNonNull(subscription, "subscription");
    collections = collections == null ? CollectionState.EMPTY : collections;
    requests = requests == null ? RequestState.EMPTY : requests;
  }

  public SubscriptionInput(
      Subscription subscription,
      boolean recorded,
      CollectionState collections,
      String requestedBy) {
    this(subscription, recorded, collections, requestedBy, null);
  }

  public SubscriptionInput(
      Subscription subscription, boolean recorded, CollectionState collections) {
    this(subscription, recorded, collections, null);
  }

  /** The first run's input: the subscription as requested, by whom. */
  public static SubscriptionInput requested(Subscription subscription, String requestedBy) {
    return new SubscriptionInput(subscription, false, CollectionState.EMPTY, requestedBy);
  }

  public SubscriptionInput(Subscription subscription, boolean recorded) {
    this(subscription, recorded, CollectionState.EMPTY);
  }
}
