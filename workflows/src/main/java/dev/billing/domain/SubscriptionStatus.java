package dev.billing.domain;

/** Where a subscription stands as a whole (the status of each billing period is {@link PeriodStatus}). */
public enum SubscriptionStatus {
  /** Billing normally; the last period, if any, was paid. */
  ACTIVE,
  /** The last period's charge failed and is unpaid. */
  PAST_DUE,
  /** Ended: no reminder and no charge will follow. */
  CANCELLED;

  public boolean isTerminal() {
    return this == CANCELLED;
  }
}
