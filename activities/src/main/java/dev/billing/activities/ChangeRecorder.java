package dev.billing.activities;

import dev.billing.store.BillingStore;
import dev.billing.store.StaleWriteException;
import dev.billing.workflows.activities.RecordInput;
import dev.billing.workflows.activities.RecordResult;
import io.temporal.failure.ApplicationFailure;
import java.util.Objects;

/** Writes one change of a subscription through the store; shared by every activity that records. */
public final class ChangeRecorder {
  private final BillingStore store;

  public ChangeRecorder(BillingStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * Creates the subscription when the change has no previous state, updates it otherwise.
   *
   * @throws ApplicationFailure non-retryable, type {@link ActivityFailureTypes#STALE_WRITE}, when the
   *     store holds a newer or different version: retrying cannot succeed
   */
  public RecordResult record(RecordInput change) {
    try {
      return change.previous() == null
          ? store.createSubscription(change)
          : store.updateSubscription(change);
    } catch (StaleWriteException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Stale write of subscription " + change.next().subscriptionId() + " (change "
              + change.changeId() + ", version " + change.next().version() + "): " + e.getMessage()
              + ". The stored subscription was changed by someone else; an operator must reconcile it.",
          ActivityFailureTypes.STALE_WRITE,
          e);
    }
  }
}
