package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Sends the payment reminder and records that it went out. One activity so a monthly cycle costs
 * one action for its reminder; the notification is idempotent by message id, so a retry after the
 * send but before the record does not send twice.
 */
@ActivityInterface
public interface ReminderActivities {
  @ActivityMethod(name = "SendPaymentReminder")
  SendReminderResult sendReminder(SendReminderInput input);
}
