package dev.billing.api.views;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Subscription;

/** A subscription as clients see it. */
public record SubscriptionView(
    String subscriptionId,
    String accountId,
    String sku,
    String amount,
    String currency,
    String email,
    PaymentMethodView paymentMethod,
    String term,
    int billingDay,
    String timeZone,
    int reminderDaysBefore,
    String firstPaymentMonth,
    String status,
    long cycle,
    String nextReminderDate,
    String nextPaymentDate,
    String lastReminderAt,
    String lastPaymentAt,
    String createdAt,
    long version) {

  public static SubscriptionView of(Subscription s) {
    BillingSchedule schedule = s.schedule();
    return new SubscriptionView(
        s.subscriptionId(),
        s.accountId(),
        s.sku(),
        s.price().toPlainString(),
        s.price().currency(),
        s.email(),
        new PaymentMethodView(s.paymentMethod().mask()),
        schedule.term().name(),
        schedule.billingDay(),
        schedule.timeZone(),
        schedule.reminderDaysBefore(),
        schedule.anchorMonth().toString(),
        s.status().name(),
        s.cycle(),
        Timestamps.date(s.nextReminderDate()),
        Timestamps.date(s.nextPaymentDate()),
        Timestamps.instant(s.lastReminderAt()),
        Timestamps.instant(s.lastPaymentAt()),
        Timestamps.instant(s.createdAt()),
        s.version());
  }
}
