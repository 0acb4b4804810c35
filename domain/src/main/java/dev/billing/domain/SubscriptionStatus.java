package dev.billing.domain;

/**
 * Where a subscription stands as a whole (the status of each billing period is {@link
 * PeriodStatus}).
 */
public enum SubscriptionStatus {
  /** In a free trial: the first charge is at the trial's end. */
  TRIALING,
  /**
   * Its first charge has not succeeded yet (after a trial: the first charge after it). A first
   * charge that fails is retried on a short schedule of its own, never dunned like a customer who
   * has paid before; when it is used up the subscription is {@link #INCOMPLETE_EXPIRED}.
   */
  INCOMPLETE,
  /** Billing normally; the last period, if any, was paid. */
  ACTIVE,
  /** The last period's charge failed and is unpaid. */
  PAST_DUE,
  /** Paused: no reminder and no charge until it resumes (by itself on its date, or by request). */
  PAUSED,
  /** Ended: no reminder and no charge will follow. */
  CANCELLED,
  /**
   * Ended before it began: its first charge was never collected. Nothing is owed (no service was
   * given), and, as for {@link #CANCELLED}, no reminder and no charge will follow.
   */
  INCOMPLETE_EXPIRED;

  /** Ended: no change but a refund is accepted, nothing is billed. */
  public boolean isTerminal() {
    return this == CANCELLED || this == INCOMPLETE_EXPIRED;
  }
}
