package dev.billing.activities.views;

import dev.billing.domain.EmailBounce;

/**
 * The last message the customer's mail server refused: the address on file needs fixing.
 *
 * @param reason the server's answer, e.g. "550 5.1.1 mailbox unavailable"
 */
public record EmailBounceView(String at, String messageId, String reason) {

  public static EmailBounceView of(EmailBounce bounce) {
    return bounce == null
        ? null
        : new EmailBounceView(Timestamps.instant(bounce.at()), bounce.messageId(), bounce.reason());
  }
}
