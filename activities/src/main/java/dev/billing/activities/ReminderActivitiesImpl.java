package dev.billing.activities;

import dev.billing.activities.delivery.DeliveryHandoff;
import dev.billing.activities.notifications.Delivery;
import dev.billing.activities.notifications.MailRejectedException;
import dev.billing.activities.notifications.MailUnavailableException;
import dev.billing.activities.notifications.MessageTemplates;
import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.notifications.ReminderMessages;
import dev.billing.domain.RecordResult;
import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the reminder (or, in a trial, the trial-ending notice), then records it. A retry after a
 * send whose record failed sends nothing new (the notification log knows the message id) and only
 * completes the record. A mail-server outage fails the attempt as retryable before anything is
 * recorded; the workflow gives the reminder until the due instant, never longer. A bounce is
 * recorded like a sent reminder (no retry can deliver it) and reported in the result.
 */
public final class ReminderActivitiesImpl implements ReminderActivities {
  private static final Logger log = LoggerFactory.getLogger(ReminderActivitiesImpl.class);

  private final Notifier notifier;
  private final ReminderMessages messages;
  private final ChangeRecorder recorder;

  public ReminderActivitiesImpl(Notifier notifier, MessageTemplates templates, BillingStore store) {
    this(notifier, templates, store, DeliveryHandoff.NONE);
  }

  /**
   * @param delivery told of the events of the reminder's record (a trial's ending)
   */
  public ReminderActivitiesImpl(
      Notifier notifier, MessageTemplates templates, BillingStore store, DeliveryHandoff delivery) {
    this.notifier = Objects.requireNonNull(notifier, "notifier");
    this.messages = new ReminderMessages(templates);
    this.recorder = new ChangeRecorder(store, delivery);
  }

  @Override
  public SendReminderResult sendReminder(SendReminderInput input) {
    Notification notification = messages.reminder(input);
    Delivery delivery;
    try {
      delivery = notifier.send(notification);
    } catch (MailUnavailableException e) {
      throw MailFailures.unavailable(notification, e);
    } catch (MailRejectedException e) {
      throw MailFailures.rejected(notification, e);
    }
    RecordResult recorded = recorder.record(input.record());
    log.info(
        "{} {} for subscription {} cycle {}: {}, version {}",
        notification.kind(),
        input.messageId(),
        notification.subscriptionId(),
        notification.cycle(),
        delivery.bounced() ? "bounced" : delivery.duplicate() ? "already sent" : "sent",
        recorded.version());
    return new SendReminderResult(
        input.messageId(),
        delivery.duplicate(),
        recorded.version(),
        delivery.bounced(),
        delivery.bounceReason());
  }
}
