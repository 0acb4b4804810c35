package dev.billing.activities;

import dev.billing.activities.notifications.Delivery;
import dev.billing.activities.notifications.MailRejectedException;
import dev.billing.activities.notifications.MailUnavailableException;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.NoticeMessages;
import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.Notifier;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import java.util.Objects;

/**
 * Renders a customer notice and delivers it. A mail-server outage fails the attempt as retryable
 * (MailServerUnavailable), so Temporal backs off and tries again within the notice's window; a
 * bounce is a result, not a failure: retrying cannot deliver it, and the workflow records it.
 */
public final class NotificationActivitiesImpl implements NotificationActivities {
  private final Notifier notifier;
  private final NoticeMessages messages;

  public NotificationActivitiesImpl(Notifier notifier, MessageTemplates templates) {
    this.notifier = Objects.requireNonNull(notifier, "notifier");
    this.messages = new NoticeMessages(templates);
  }

  @Override
  public NotifyCustomerResult notifyCustomer(NotifyCustomerInput input) {
    Notification notification = messages.notice(input);
    Delivery delivery;
    try {
      delivery = notifier.send(notification);
    } catch (MailUnavailableException e) {
      throw MailFailures.unavailable(notification, e);
    } catch (MailRejectedException e) {
      throw MailFailures.rejected(notification, e);
    }
    return new NotifyCustomerResult(
        input.messageId(), delivery.duplicate(), delivery.bounced(), delivery.bounceReason());
  }
}
