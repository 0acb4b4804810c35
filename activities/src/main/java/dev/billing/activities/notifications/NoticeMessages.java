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
    };
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
