package dev.billing.activities.notifications;

import dev.billing.workflows.activities.NotifyCustomerInput;

/**
 * The words of the notices the workflow sends besides the reminder. Kept apart from sending, like
 * {@link ReminderMessages}, so templates can replace them without touching delivery.
 */
public final class NoticeMessages {
  private NoticeMessages() {}

  public static RenderedMessage render(NotifyCustomerInput notice) {
    return switch (notice.kind()) {
      case PAYMENT_FAILED -> paymentFailed(notice);
      case SUBSCRIPTION_CANCELLED -> cancelled(notice);
      // Plain placeholders until the templated messages replace this class.
      case PAYMENT_RECEIPT -> plain(notice, "Receipt for your " + notice.sku() + " payment");
      case SUBSCRIPTION_PAUSED -> plain(notice, "Your " + notice.sku() + " subscription is paused");
      case SUBSCRIPTION_RESUMED -> plain(notice, "Your " + notice.sku() + " subscription is resumed");
      case PLAN_CHANGED -> plain(notice, "Your plan is now " + notice.sku());
      case REFUND_ISSUED -> plain(notice, "A refund of " + notice.amount() + " is on its way");
    };
  }

  private static RenderedMessage plain(NotifyCustomerInput n, String subject) {
    return new RenderedMessage(subject, "Hello,\n\n" + subject + (n.date() == null ? "" : " (" + n.date() + ")")
        + (n.amount() == null ? "" : ", amount " + n.amount()) + ".\n");
  }

  private static RenderedMessage paymentFailed(NotifyCustomerInput n) {
    String method = n.paymentMask() == null || n.paymentMask().isBlank()
        ? "your payment method" : n.paymentMask();
    String why = n.reason() == null || n.reason().isBlank() ? "" : " The bank said: " + n.reason();
    String next = n.date() == null
        ? "We will not try again. Please update your payment method to keep your subscription."
        : "We will try again on " + n.date() + ". Updating your payment method retries at once.";
    return new RenderedMessage(
        "Your " + n.sku() + " payment of " + n.amount() + " did not go through",
        "Hello,\n\nwe could not charge " + n.amount() + " to " + method + " for your " + n.sku()
            + " subscription." + why + "\n" + next + "\n");
  }

  private static RenderedMessage cancelled(NotifyCustomerInput n) {
    String why = n.reason() == null || n.reason().isBlank() ? "" : " Reason: " + n.reason() + ".";
    return new RenderedMessage(
        "Your " + n.sku() + " subscription is cancelled",
        "Hello,\n\nyour " + n.sku() + " subscription is cancelled" + (n.date() == null ? "" : " as of " + n.date())
            + "." + why + "\nNo further payments will be taken.\n");
  }
}
