package dev.billing.api.views;

import dev.billing.activities.views.Timestamps;
import dev.billing.store.DueReminder;

/** A subscription whose reminder is due on the requested date (GSI-1). */
public record DueReminderView(
    String accountId,
    String subscriptionId,
    String sku,
    String email,
    String nextReminderDate,
    String nextPaymentDate,
    String lastReminderAt) {

  public static DueReminderView of(DueReminder d) {
    return new DueReminderView(
        d.accountId(),
        d.subscriptionId(),
        d.sku(),
        d.email(),
        Timestamps.date(d.nextReminderDate()),
        Timestamps.date(d.nextPaymentDate()),
        Timestamps.instant(d.lastReminderAt()));
  }
}
