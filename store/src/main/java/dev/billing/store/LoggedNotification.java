package dev.billing.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the notification log: a customer message the mail server answered for good.
 *
 * @param messageId the message's Message-ID ({@code dev.billing.domain.BillingIds#messageId})
 * @param kind what it was about (PAYMENT_REMINDER, PAYMENT_RECEIPT, ...)
 * @param at the time of the notification the message tells about (workflow time); with the
 *     retention it sets {@code expiresAt}
 * @param answeredAt when the server answered (the worker's clock)
 * @param detail the server's answer to a bounce ("550 5.1.1 ..."); null when sent
 * @param expiresAt null on write: assigned from the log's retention; always set when read
 */
public record LoggedNotification(
    String accountId,
    String subscriptionId,
    String messageId,
    long cycle,
    String kind,
    String recipient,
    NotificationStatus status,
    Instant at,
    Instant answeredAt,
    String detail,
    Instant expiresAt) {

  public LoggedNotification {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(recipient, "recipient");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(answeredAt, "answeredAt");
  }
}
