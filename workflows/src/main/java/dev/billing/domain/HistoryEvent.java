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
  DUNNING_EXHAUSTED
}
