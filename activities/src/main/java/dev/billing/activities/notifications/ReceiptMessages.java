package dev.billing.activities.notifications;

import dev.billing.domain.BillingIds;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import java.util.Objects;

/**
 * The receipt email of one successful charge, as RecordChange sends it right after the charge's
 * records commit. Its id is {@link BillingIds#receiptMessageId}, the id a PAYMENT_RECEIPT notice
 * for the same charge carries, so the notification log sends the receipt once whichever path
 * delivers it.
 */
public final class ReceiptMessages {
  private final MessageTemplates templates;

  public ReceiptMessages(MessageTemplates templates) {
    this.templates = Objects.requireNonNull(templates, "templates");
  }

  /**
   * @param subscription the subscription after the change (its locale and time zone; its address
   *     when the receipt has none)
   */
  public Notification receipt(Receipt receipt, Subscription subscription) {
    MessageModel model =
        new MessageModel(
                MessageFormats.of(subscription.locale(), subscription.schedule().timeZone()))
            .text("sku", receipt.sku())
            .money("amount", receipt.amount())
            .date("paidOn", receipt.processedAt())
            .paymentMethod(receipt.paymentMask())
            .text("transactionId", receipt.transactionId());
    String to = receipt.email() != null ? receipt.email() : subscription.email();
    return new Notification(
        BillingIds.receiptMessageId(receipt),
        NotificationKind.PAYMENT_RECEIPT,
        to,
        templates.render(NotificationKind.PAYMENT_RECEIPT, model.values()),
        receipt.processedAt(),
        receipt.accountId(),
        receipt.subscriptionId(),
        receipt.cycle());
  }
}
