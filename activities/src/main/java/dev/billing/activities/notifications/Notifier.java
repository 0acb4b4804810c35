package dev.billing.activities.notifications;

/** Delivers notifications to customers, at most once per message id. */
public interface Notifier {

  /**
   * Accepts a notification for delivery.
   *
   * @return false when a notification with the same message id was already accepted; it is not sent
   *     again
   */
  boolean send(Notification notification);
}
