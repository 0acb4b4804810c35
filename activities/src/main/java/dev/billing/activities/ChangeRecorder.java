package dev.billing.activities;

import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.store.BillingStore;
import dev.billing.store.InvalidChangeException;
import dev.billing.store.StaleWriteException;
import io.temporal.failure.ApplicationFailure;
import java.util.Objects;

/**
 * Writes one change of a subscription through the store; shared by every activity that records.
 * Once the change is committed, or found committed by an earlier attempt (a process that died
 * between the write and the hand-off is retried by Temporal and gets here again), its merchant
 * events are handed to delivery.
 */
public final class ChangeRecorder {
  private final BillingStore store;
  private final DeliveryHandoff delivery;

  public ChangeRecorder(BillingStore store) {
    this(store, DeliveryHandoff.NONE);
  }

  public ChangeRecorder(BillingStore store, DeliveryHandoff delivery) {
    this.store = Objects.requireNonNull(store, "store");
    this.delivery = Objects.requireNonNull(delivery, "delivery");
  }

  /**
   * Creates the subscription when the change has no previous state, updates it otherwise.
   *
   * @throws ApplicationFailure type {@link ActivityFailureTypes#STALE_WRITE} when the store holds a
   *     newer or different version. Retryable on purpose: failing the workflow here could strand a
   *     charge without its receipt, so the activity keeps retrying (visible in the Temporal UI as a
   *     pending activity with this message) until an operator reconciles the item
   * @throws ApplicationFailure type {@link ActivityFailureTypes#INVALID_CHANGE}, non-retryable,
   *     when the store refuses the change as a caller mistake: sent again it is refused again, so
   *     retrying it (the record options retry without limit) would only hide the bug
   */
  public RecordResult record(RecordInput change) {
    RecordResult result = write(change);
    delivery.committed(change);
    return result;
  }

  private RecordResult write(RecordInput change) {
    try {
      return change.previous() == null
          ? store.createSubscription(change)
          : store.updateSubscription(change);
    } catch (InvalidChangeException e) {
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "Invalid change "
              + change.changeId()
              + " of subscription "
              + change.next().subscriptionId()
              + ": "
              + e.getMessage()
              + ". A bug in the caller; not retried.",
          ActivityFailureTypes.INVALID_CHANGE,
          e);
    } catch (StaleWriteException e) {
      throw ApplicationFailure.newFailureWithCause(
          "Stale write of subscription "
              + change.next().subscriptionId()
              + " (change "
              + change.changeId()
              + ", version "
              + change.next().version()
              + "): "
              + e.getMessage()
              + ". The stored subscription was changed outside its workflow; retrying until an operator reconciles it (docs/operations.md).",
          ActivityFailureTypes.STALE_WRITE,
          e);
    }
  }
}
