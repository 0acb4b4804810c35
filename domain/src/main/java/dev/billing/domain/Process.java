package dev.billing.domain;

/**
 * Which path of the system caused a change. Recorded on every history entry so an operator can tell
 * a scheduled charge from an API call.
 */
public enum Process {
  /** A request through the REST API. */
  API,
  /** The scheduled reminder before a payment. */
  REMINDER,
  /** First scheduled collection attempt of a period. */
  INITIAL,
  /** A later collection attempt of the same period. */
  RETRY,
  /** A pause ending by itself, or skipping a period while paused. */
  PAUSE,
  /** Manual repayment of an unpaid period. */
  MANUAL_REPAYMENT,
  /** A gateway webhook. */
  WEBHOOK,
  /** A customer notice, e.g. one the customer's mail server refused. */
  NOTIFICATION,
  /** A reconciliation run repairing drift. */
  RECONCILIATION
}
