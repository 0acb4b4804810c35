package dev.billing.activities.notifications;

import dev.billing.workflows.activities.NotifyCustomerInput;
import java.util.Objects;

/**
 * The notices the workflow sends besides the reminder, one template per kind. What {@code date},
 * {@code amount} and {@code reason} mean depends on the kind (see {@link
 * NotifyCustomerInput.Kind}); each becomes the value its template names.
 */
public final class NoticeMessages {
  private final MessageTemplates templates;

  public NoticeMessages(MessageTemplates templates) {
    this.templates = Objects.requireNonNull(templates, "templates");
  }

  public Notification notice(NotifyCustomerInput notice) {
    MessageModel model =
        new MessageModel(MessageFormats.of(notice.locale(), notice.timeZone()))
            .text("sku", notice.sku())
            .money("amount", notice.amount())
            .paymentMethod(notice.paymentMask());
    NotificationKind kind =
        switch (notice.kind()) {
          case PAYMENT_FAILED -> {
            model.date("nextRetry", notice.date()).text("reason", notice.reason());
            yield NotificationKind.PAYMENT_FAILED;
          }
          case SUBSCRIPTION_CANCELLED -> {
            model.date("endsOn", notice.date()).text("reason", notice.reason());
            yield NotificationKind.SUBSCRIPTION_CANCELLED;
          }
          case PAYMENT_RECEIPT -> {
            if (notice.date() != null) {
              model.date("paidOn", notice.date());
            } else {
              model.date("paidOn", notice.at());
            }
            model.text("transactionId", notice.reason());
            yield NotificationKind.PAYMENT_RECEIPT;
          }
          case SUBSCRIPTION_PAUSED -> {
            model.date("resumesOn", notice.date());
            yield NotificationKind.SUBSCRIPTION_PAUSED;
          }
          case SUBSCRIPTION_RESUMED -> {
            model.date("nextPayment", notice.date());
            yield NotificationKind.SUBSCRIPTION_RESUMED;
          }
          case PLAN_CHANGED -> {
            model.date("firstPayment", notice.date());
            yield NotificationKind.PLAN_CHANGED;
          }
          case REFUND_ISSUED -> {
            model.date("refundedOn", notice.date());
            yield NotificationKind.REFUND_ISSUED;
          }
          case SUBSCRIPTION_EXPIRED -> {
            model.text("reason", notice.reason());
            yield NotificationKind.SUBSCRIPTION_EXPIRED;
          }
        };
    return new Notification(
        notice.messageId(),
        kind,
        notice.email(),
        templates.render(kind, model.values()),
        notice.at(),
        notice.accountId(),
        notice.subscriptionId(),
        notice.cycle());
  }
}
