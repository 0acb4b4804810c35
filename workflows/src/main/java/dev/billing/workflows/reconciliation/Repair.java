package dev.billing.workflows.reconciliation;

/** What a run did about a finding. */
public enum Repair {
  /** Nothing: reported for an operator (or the run was told not to repair). */
  NONE,
  /** The subscription's workflow was started again from the record. */
  WORKFLOW_RESTARTED,
  /** The workflow was sent the gateway's events about the charge, so it settles the period itself. */
  WORKFLOW_SIGNALLED,
  /** A receipt was written from the gateway's charge (conditional put: never a second one). */
  RECEIPT_CREATED,
  /** The missed event was stored and signalled through the webhook's own handling. */
  EVENT_REPLAYED,
  /** A repair was attempted and failed; the detail says why. */
  FAILED
}
