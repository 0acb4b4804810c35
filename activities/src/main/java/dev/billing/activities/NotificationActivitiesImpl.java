package dev.billing.activities;

import dev.billing.activities.notifications.NoticeMessages;
import dev.billing.activities.notifications.Notification;
import dev.billing.activities.notifications.NotificationKind;
import dev.billing.activities.notifications.Notifier;
import dev.billing.activities.notifications.RenderedMessage;
import dev.billing.workflows.activities.NotificationActivities;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerResult;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Renders a customer notice and hands it to the notifier, which deduplicates by message id. */
public final class NotificationActivitiesImpl implements NotificationActivities {
  private static final Logger log = LoggerFactory.getLogger(NotificationActivitiesImpl.class);

  private final Notifier notifier;

  public NotificationActivitiesImpl(Notifier notifier) {
    this.notifier = Objects.requireNonNull(notifier, "notifier");
  }

  @Override
  public NotifyCustomerResult notifyCustomer(NotifyCustomerInput input) {
    RenderedMessage message = NoticeMessages.render(input);
    boolean accepted = notifier.send(new Notification(input.messageId(),
        NotificationKind.valueOf(input.kind().name()), input.email(), message.subject(),
        message.textBody(), input.at(), input.accountId(), input.subscriptionId()));
    log.info("Notice {} ({}) for subscription {} cycle {}: {}", input.messageId(), input.kind(),
        input.subscriptionId(), input.cycle(), accepted ? "sent" : "already sent");
    return new NotifyCustomerResult(input.messageId(), !accepted);
  }
}
