package dev.billing.workflows.activities;

/**
 * @param messageId the id the notifier accepted
 * @param duplicate true when the notifier had already accepted this message
 * @param version the subscription version now stored
 * @param bounced true when the address was permanently rejected (SMTP 5xx on RCPT); the reminder is
 *     recorded all the same, so the workflow does not retry it, and records the bounce
 * @param bounceReason the server's answer; null unless bounced
 */
public record SendReminderResult(
    String messageId, boolean duplicate, long version, boolean bounced, String bounceReason) {

  /** Delivered (or already delivered), not bounced. */
  public SendReminderResult(String messageId, boolean duplicate, long version) {
    this(messageId, duplicate, version, false, null);
  }
}
