package dev.billing.activities.notifications;

/**
 * What became of one notification.
 *
 * @param duplicate the notification log already held this message: nothing was sent now
 * @param bounced the recipient's address was permanently refused (SMTP 5xx to RCPT)
 * @param bounceReason the server's answer when bounced, else null
 */
public record Delivery(boolean duplicate, boolean bounced, String bounceReason) {

  public static Delivery sent() {
    return new Delivery(false, false, null);
  }

  public static Delivery alreadySent() {
    return new Delivery(true, false, null);
  }

  public static Delivery bounced(String reason, boolean duplicate) {
    return new Delivery(duplicate, true, reason);
  }
}
