package dev.billing.activities.notifications;

/** What a notification is about; a template and a delivery policy per kind. */
public enum NotificationKind {
  PAYMENT_REMINDER,
  PAYMENT_FAILED,
  SUBSCRIPTION_CANCELLED
}
