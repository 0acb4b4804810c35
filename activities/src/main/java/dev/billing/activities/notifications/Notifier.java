package dev.billing.activities.notifications;

/**
 * Delivers notifications to customers, at most once per message id as far as the server answered.
 */
public interface Notifier {

  /**
   * Delivers the notification unless it was already delivered (or bounced) under its message id.
   *
   * @return sent, already sent, or bounced (the address was refused for good)
   * @throws MailUnavailableException the mail server could not be reached or answered "try later":
   *     nothing was logged, so sending again later is safe and right
   * @throws MailRejectedException the server refused the message itself for good (not the address)
   */
  Delivery send(Notification notification);
}
