package dev.billing.domain;

/** What happened to a subscription; one history entry each. */
public enum HistoryEvent {
  SUBSCRIPTION_CREATED,
  REMINDER_SENT,
  PAYMENT_SUCCEEDED,
  PAYMENT_FAILED,
  SUBSCRIPTION_CANCELLED,
  PAYMENT_METHOD_CHANGED,
  PAYMENT_PENDING,
  PAYMENT_RETURNED,
  DUNNING_EXHAUSTED,
  SUBSCRIPTION_PAUSED,
  SUBSCRIPTION_RESUMED,
  PERIOD_SKIPPED,
  PLAN_CHANGED,
  PLAN_CHANGE_SCHEDULED,
  CANCELLATION_SCHEDULED,
  PERIOD_WAIVED,
  PAYMENT_REFUNDED,
  BILLING_DAY_CHANGED,
  PERIOD_STALE,
  EMAIL_BOUNCED,
  /**
   * A cycle whose amount due was below the gateway's minimum charge: carried to the next charge.
   */
  PAYMENT_CARRIED_OVER,
  /**
   * A refund's key kept on its period before the key is sent: its outcome follows as
   * PAYMENT_REFUNDED, PAYMENT_PENDING (no answer) or PAYMENT_FAILED (refused).
   */
  REFUND_REQUESTED,
  /** A collected period's charge was disputed by the card holder: the period is DISPUTED. */
  PAYMENT_DISPUTED,
  /** A dispute was decided for the merchant: the disputed period is collected again. */
  DISPUTE_WON,
  /** The customer's email, locale or time zone changed; a new email clears a recorded bounce. */
  CUSTOMER_CHANGED,
  /**
   * A cancelled subscription bills again (within the reactivation window), or a cancellation
   * scheduled at period end was taken back.
   */
  SUBSCRIPTION_REACTIVATED
}
