package dev.billing.store;

/** What the mail server said to one customer message. */
public enum NotificationStatus {
  /** The server accepted it for delivery (250 to DATA): a retry must not send it again. */
  SENT,
  /** The server permanently refused the recipient (5xx to RCPT): no retry can deliver it. */
  BOUNCED
}
