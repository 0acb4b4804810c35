package dev.billing.workflows.activities;

/**
 * @param duplicate true when the notifier had already accepted this message id (or had already seen
 *     it bounce): nothing was sent this time
 * @param bounced true when the recipient's mail server permanently rejected the address (an SMTP
 *     5xx answer to RCPT): the message cannot be delivered, retrying would not help, and the
 *     workflow records the bounce on the subscription
 * @param bounceReason the server's answer, e.g. "550 5.1.1 mailbox unavailable"; null unless
 *     bounced
 */
public record NotifyCustomerResult(
    String messageId, boolean duplicate, boolean bounced, String bounceReason) {

  /** Delivered (or already delivered), not bounced. */
  public NotifyCustomerResult(String messageId, boolean duplicate) {
    this(messageId, duplicate, false, null);
  }
}
