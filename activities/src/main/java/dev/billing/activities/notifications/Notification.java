package dev.billing.activities.notifications;

import java.time.Instant;
import java.util.Objects;

/**
 * One message to a customer, rendered and addressed.
 *
 * @param messageId from {@link dev.billing.domain.BillingIds#messageId}; becomes the Message-ID
 *     header, and the notification log deduplicates on it, so every retry carries the same id
 * @param at workflow time of the notification, not the time the activity ran; the Date header
 */
public record Notification(
    String messageId,
    NotificationKind kind,
    String to,
    RenderedMessage content,
    Instant at,
    String accountId,
    String subscriptionId,
    long cycle) {

  public Notification {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
  }

  public String subject() {
    return content.subject();
  }

  public String textBody() {
    return content.textBody();
  }

  public String htmlBody() {
    return content.htmlBody();
  }
}
