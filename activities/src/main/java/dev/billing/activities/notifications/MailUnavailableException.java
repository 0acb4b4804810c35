package dev.billing.activities.notifications;

/**
 * The mail server could not take the message now: it was unreachable, timed out, refused the login,
 * or answered with a transient (4xx) code. Nothing was logged; a later attempt sends it.
 */
public final class MailUnavailableException extends RuntimeException {
  public MailUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
