package dev.billing.activities.notifications;

import java.time.Instant;
import java.util.Objects;

/**
 * One message to a customer, already rendered.
 *
 * @param messageId from {@link dev.billing.domain.BillingIds#messageId}; the notifier deduplicates on
 *     it, so every retry of the same notification carries the same id
 * @param at workflow time of the notification, not the time the activity ran
 */
public record Notification(
    String messageId,
    NotificationKind kind,
    String to,
    String subject,
    String textBody,
    Instant at,
    String accountId,
    String subscriptionId) {

  public Notification {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(textBody, "textBody");
    Objects.requireNonNull(at, "at");
  }
}
