package dev.billing.activities;

import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.NotificationKind;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.notifications.ReminderMessages;
import dev.billing.activities.notifications.RenderedMessage;
import dev.billing.domain.Subscription;
import dev.billing.store.BillingStore;
import dev.billing.workflows.activities.RecordResult;
import dev.billing.workflows.activities.ReminderActivities;
import dev.billing.workflows.activities.SendReminderInput;
import dev.billing.workflows.activities.SendReminderResult;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the reminder, then records it. A retry after a send whose record failed sends nothing new
 * (the notifier deduplicates by message id) and only completes the record.
 */
public final class ReminderActivitiesImpl implements ReminderActivities {
  private static final Logger log = LoggerFactory.getLogger(ReminderActivitiesImpl.class);

  private final Notifier notifier;
  private final ChangeRecorder recorder;

  public ReminderActivitiesImpl(Notifier notifier, BillingStore store) {
    this.notifier = Objects.requireNonNull(notifier, "notifier");
    this.recorder = new ChangeRecorder(store);
  }

  @Override
  public SendReminderResult sendReminder(SendReminderInput input) {
    Subscription subscription = input.record().next();
    RenderedMessage message = ReminderMessages.paymentReminder(
        input.sku(), input.amount(), input.paymentDate(), input.paymentMask());
    boolean accepted = notifier.send(new Notification(
        input.messageId(),
        NotificationKind.PAYMENT_REMINDER,
        input.email(),
        message.subject(),
        message.textBody(),
        input.record().at(),
        subscription.accountId(),
        subscription.subscriptionId()));
    RecordResult recorded = recorder.record(input.record());
    log.info("Payment reminder {} for subscription {} cycle {}: {}, version {}",
        input.messageId(), subscription.subscriptionId(), subscription.cycle(),
        accepted ? "sent" : "already sent", recorded.version());
    return new SendReminderResult(input.messageId(), !accepted, recorded.version());
  }
}
