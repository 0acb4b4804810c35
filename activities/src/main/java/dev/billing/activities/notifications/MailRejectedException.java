package dev.billing.activities.notifications;

/**
 * The mail server refused the message for good (a 5xx answer to MAIL FROM or DATA: the sender, the
 * size, the content), unlike a bounce, which refuses one recipient. Sending it again would be
 * refused again; an operator has to look (usually the from address or the relay's policy).
 */
public final class MailRejectedException extends RuntimeException {
  public MailRejectedException(String message, Throwable cause) {
    super(message, cause);
  }
}
