package dev.billing.workflows.activities;

import dev.billing.domain.RecordInput;
import dev.billing.domain.Money;
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
}
