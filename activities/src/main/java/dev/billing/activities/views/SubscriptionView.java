package dev.billing.activities.views;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Subscription;

/**
 * A subscription as clients see it.
 *
 * @param locale BCP 47 tag of the customer's messages
 * @param trialEndsOn the end of the free trial, which is the first due date; null without a trial
 * @param pause set while paused
 * @param pendingChange a plan change held for a later period
 * @param cancelsOn set by a cancellation at period end: the paid-through date, when the
 *     subscription ends without a further charge
 * @param balance what the next charge adds (positive) or credits (negative), in the subscription's
 *     currency; null when nothing is carried
 * @param emailBounce the last message the customer's mail server refused; null when none did
 */
public record SubscriptionView(
    String subscriptionId,
    String accountId,
    String sku,
    String amount,
    String currency,
    String email,
    String locale,
    PaymentMethodView paymentMethod,
    String term,
    int billingDay,
    String timeZone,
    int reminderDaysBefore,
    String firstPaymentMonth,
    String status,
    String trialEndsOn,
    PauseView pause,
    PendingChangeView pendingChange,
    String cancelsOn,
    String balance,
    EmailBounceView emailBounce,
    long cycle,
    String nextReminderDate,
    String nextPaymentDate,
    String lastReminderAt,
    String lastPaymentAt,
    String createdAt,
    long version) {

  public static SubscriptionView of(Subscription s) {
    BillingSchedule schedule = s.schedule();
    Lifecycle lifecycle = s.lifecycle();
    return new SubscriptionView(
        s.subscriptionId(),
        s.accountId(),
        s.sku(),
        s.price().toPlainString(),
        s.price().currency(),
        s.email(),
        s.locale(),
        new PaymentMethodView(s.paymentMethod().mask()),
        schedule.term().name(),
        schedule.billingDay(),
        schedule.timeZone(),
        schedule.reminderDaysBefore(),
        schedule.anchorMonth().toString(),
        s.status().name(),
        Timestamps.date(lifecycle.trialEndsOn()),
        PauseView.of(lifecycle.pause()),
        PendingChangeView.of(lifecycle.pendingChange(), schedule.term()),
        Timestamps.date(lifecycle.cancelsOn()),
        lifecycle.balance() == null ? null : lifecycle.balance().toPlainString(),
        EmailBounceView.of(lifecycle.emailBounce()),
        s.cycle(),
        Timestamps.date(s.nextReminderDate()),
        Timestamps.date(s.nextPaymentDate()),
        Timestamps.instant(s.lastReminderAt()),
        Timestamps.instant(s.lastPaymentAt()),
        Timestamps.instant(s.createdAt()),
        s.version());
  }
}
