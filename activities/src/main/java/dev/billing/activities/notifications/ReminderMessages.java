package dev.billing.activities.notifications;

import dev.billing.domain.Money;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The payment reminder's words. Kept apart from sending so that templates can replace it without
 * touching delivery.
 */
public final class ReminderMessages {
  private ReminderMessages() {}

  /**
   * @param paymentMask e.g. "Visa •••• 4242"; null when the payment method has no mask
   */
  public static RenderedMessage paymentReminder(
      String sku, Money amount, LocalDate paymentDate, String paymentMask) {
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(paymentDate, "paymentDate");
    String method = paymentMask == null || paymentMask.isBlank()
        ? "your payment method on file"
        : paymentMask;
    String subject = "Your " + sku + " payment of " + amount + " is due on " + paymentDate;
    String text = "Hello,\n"
        + "\n"
        + "your " + sku + " subscription renews on " + paymentDate + ".\n"
        + "We will charge " + amount + " to " + method + " on that day.\n"
        + "\n"
        + "If your payment details are up to date, there is nothing to do.\n";
    return new RenderedMessage(subject, text);
  }
}
