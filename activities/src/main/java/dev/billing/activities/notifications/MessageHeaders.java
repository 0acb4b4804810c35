package dev.billing.activities.notifications;

/**
 * Headers every customer message carries besides the standard ones, so a mailbox (support's, the
 * dev stack's outbox) can tell what a message is about without parsing its text.
 */
public final class MessageHeaders {
  private MessageHeaders() {}

  /** The {@link NotificationKind} name, e.g. PAYMENT_RECEIPT. */
  public static final String KIND = "X-Billing-Kind";

  public static final String ACCOUNT = "X-Billing-Account";
  public static final String SUBSCRIPTION = "X-Billing-Subscription";
}
