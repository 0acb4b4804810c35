package dev.billing.domain;

/** Status of one billing period (docs/data-model.md maps them to the source documents' names). */
public enum PeriodStatus {
  /** Awaiting its first collection attempt. */
  SCHEDULED,
  /** Charged by bank debit and waiting for settlement. */
  PENDING_SETTLEMENT,
  /** Collected; a receipt exists. */
  COMPLETED,
  /** The last collection attempt failed; the period is unpaid. */
  ERROR,
  /** The subscription was cancelled before the period was collected. */
  CANCELLED,
  /** Forgiven without payment (an operator's waiver of an ERROR period). */
  WAIVED,
  /** Not billed because the subscription was paused over its due date. */
  PAUSED_SKIPPED,
  /** Collected, then refunded in full or in part (the period's refunded amount says how much). */
  REFUNDED,
  /** Unpaid for longer than the dunning policy's stale age: no longer collected. */
  STALE,
  /**
   * Collected, then disputed by the card holder (a chargeback): the gateway holds the money until
   * the dispute is decided. Won, the period is collected again (COMPLETED or REFUNDED); lost, the
   * money went back as with a returned bank debit (ERROR).
   */
  DISPUTED
}
