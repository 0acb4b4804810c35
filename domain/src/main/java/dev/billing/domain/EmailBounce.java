package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * The customer's mail server refused our message permanently (an SMTP 5xx to the recipient): the
 * address needs fixing. Kept on the subscription so support and the API can see it.
 *
 * @param messageId the message that bounced
 * @param reason the server's answer, e.g. "550 5.1.1 mailbox unavailable"
 */
public record EmailBounce(Instant at, String messageId, String reason) {
  public EmailBounce {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(messageId, "messageId");
  }
}
