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
  CANCELLED
}
