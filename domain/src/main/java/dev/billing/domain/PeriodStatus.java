package dev.billing.domain;

/** Status of one billing period (one record per period, as in seed 004's billing-activity table). */
public enum PeriodStatus {
  /** Awaiting its first collection attempt. */
  SCHEDULED,
  /** Charged by bank debit and waiting for settlement (seed 004's ACHSENT). */
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
  /** Unpaid for longer than the dunning policy's stale age: no longer collected (seed 004's OLD_SUBSCRIPTION_DAYS). */
  STALE
}
