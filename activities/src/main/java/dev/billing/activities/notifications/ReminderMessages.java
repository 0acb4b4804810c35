package dev.billing.activities.notifications;

import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.activities.SendReminderInput;
import java.util.Objects;

/**
 * The message before a payment: the payment reminder, or, while the subscription is still in its
 * trial, the notice that the trial ends and the first payment follows. Amount and date are written
 * for the subscription's locale, the date being the due date on the subscription's calendar.
 */
public final class ReminderMessages {
  private final MessageTemplates templates;

  public ReminderMessages(MessageTemplates templates) {
    this.templates = Objects.requireNonNull(templates, "templates");
  }

  public Notification reminder(SendReminderInput input) {
    Subscription subscription = input.record().next();
    boolean trial = subscription.status() == SubscriptionStatus.TRIALING;
    NotificationKind kind =
        trial ? NotificationKind.TRIAL_ENDING : NotificationKind.PAYMENT_REMINDER;
    MessageModel model =
        new MessageModel(
                MessageFormats.of(subscription.locale(), subscription.schedule().timeZone()))
            .text("sku", input.sku())
            .money("amount", input.amount())
            .paymentMethod(input.paymentMask())
            .date(trial ? "trialEnds" : "dueDate", input.paymentDate())
            .text("term", subscription.schedule().term() == Term.YEARLY ? "year" : "month");
    return new Notification(
        input.messageId(),
        kind,
        input.email(),
        templates.render(kind, model.values()),
        input.record().at(),
        subscription.accountId(),
        subscription.subscriptionId(),
        subscription.cycle());
  }
}
