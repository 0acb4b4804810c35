package dev.billing.domain;

/**
 * Where a subscription stands as a whole (the status of each billing period is {@link
 * PeriodStatus}).
 */
public enum SubscriptionStatus {
  /** In a free trial: the first charge is at the trial's end. */
  TRIALING,
  /** Billing normally; the last period, if any, was paid. */
  ACTIVE,
  /** The last period's charge failed and is unpaid. */
  PAST_DUE,
  /** Paused: no reminder and no charge until it resumes (by itself on its date, or by request). */
  PAUSED,
  /** Ended: no reminder and no charge will follow. */
  CANCELLED;

  public boolean isTerminal() {
    return this == CANCELLED;
  }
}
