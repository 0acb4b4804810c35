package dev.billing.domain.reconciliation;

/** What a run did about a finding. */
public enum Repair {
  /** Nothing: reported for an operator (or the run was told not to repair). */
  NONE,
  /** The subscription's workflow was started again from the record. */
  WORKFLOW_RESTARTED,
  /**
   * The workflow was sent the gateway's outcome of the charge as a payment event. Not a repair by
   * itself: the workflow decides the effect by its own state (an event for a period it does not
   * hold open changes nothing, a duplicate id is dropped), and a signal waits behind an activity
   * that is stuck. The next run finds the same gap again if the signal changed nothing; not counted
   * as repaired.
   */
  WORKFLOW_SIGNALLED,
  /** A receipt was written from the gateway's charge (conditional put: never a second one). */
  RECEIPT_CREATED,
  /** The missed event was stored and signalled through the webhook's own handling. */
  EVENT_REPLAYED,
  /** A repair was attempted and failed; the detail says why. */
  FAILED
}
