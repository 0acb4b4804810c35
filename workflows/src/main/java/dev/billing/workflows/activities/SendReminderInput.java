package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import java.time.LocalDate;
import java.util.Objects;

/**
 * @param messageId from {@link dev.billing.domain.BillingIds#messageId}
 * @param record the change to write once the reminder is accepted for delivery
 */
public record SendReminderInput(
    String messageId,
    String email,
    String sku,
    Money amount,
    LocalDate paymentDate,
    String paymentMask,
    RecordInput record) {

  public SendReminderInput {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(record, "record");
  }

  /**
   * The reminder of {@code cycle}'s payment, to write {@code record} once accepted for delivery.
   */
  public static SendReminderInput of(
      Subscription sub, long cycle, String messageId, RecordInput record) {
    return new SendReminderInput(
        messageId,
        sub.email(),
        sub.sku(),
        sub.amountDueFor(cycle),
        sub.schedule().dueDate(cycle),
        sub.paymentMethod().mask(),
        record);
  }
}
