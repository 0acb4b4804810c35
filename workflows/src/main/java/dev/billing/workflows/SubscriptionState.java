package dev.billing.workflows;

import dev.billing.domain.Subscription;
import java.time.Instant;

/**
 * What the {@code state} query and every update return, and what the workflow returns when it ends.
 *
 * @param phase what the workflow is doing now
 * @param waitingUntil when the current sleep ends; null when not sleeping
 * @param lastOutcome a sentence an operator can read, e.g. "cycle 3 charged: txn_123"
 * @param request in an update's answer, the request it answers: its id, fingerprint and status
 *     (PENDING: taken on, its money's outcome still unknown); null in queries and the run's result
 */
public record SubscriptionState(
    Subscription subscription,
    Phase phase,
    Instant waitingUntil,
    String lastOutcome,
    AppliedRequest request) {

  public SubscriptionState(
      Subscription subscription, Phase phase, Instant waitingUntil, String lastOutcome) {
    this(subscription, phase, waitingUntil, lastOutcome, null);
  }

  /** The steps of a cycle, in order. */
  public enum Phase {
    RECORDING_CREATION,
    WAITING_FOR_REMINDER,
    SENDING_REMINDER,
    WAITING_FOR_PAYMENT,
    CHARGING,
    RECORDING_PAYMENT,
    /** An unpaid period waits for its next dunning retry (waitingUntil). */
    WAITING_FOR_RETRY,
    /** A bank debit waits for its settlement event; at waitingUntil the gateway is asked. */
    WAITING_FOR_SETTLEMENT,
    /** Paused: waits for the pause to end (waitingUntil), a resume, or a period to skip. */
    PAUSED,
    CANCELLING,
    ENDED
  }
}
