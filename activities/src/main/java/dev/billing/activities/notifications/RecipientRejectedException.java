package dev.billing.activities.notifications;

/** The server refused the recipient's address for good (5xx to RCPT TO): a bounce. */
public final class RecipientRejectedException extends Exception {
  public RecipientRejectedException(String serverAnswer, Throwable cause) {
    super(serverAnswer, cause);
  }
}
