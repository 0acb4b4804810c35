package dev.billing.api.subscriptions;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A create request after validation, with defaults applied.
 *
 * @param startDate the requested (or defaulted) start; the first payment is the first billing date
 *     on or after it
 * @param requestHash fingerprint of the request, to tell a replay from a reused Idempotency-Key
 * @param locale normalized BCP 47 tag of the customer's messages
 * @param trialEndsOn the end of the free trial, which is the first due date; null without a trial
 */
public record NewSubscription(
    String sku,
    Money price,
    String email,
    PaymentMethod paymentMethod,
    LocalDate startDate,
    BillingSchedule schedule,
    String requestHash,
    String locale,
    LocalDate trialEndsOn) {

  /**
   * The subscription as the workflow's first run receives it: version 0, cycle 1, not yet stored;
   * TRIALING until its first charge when it has a trial, else INCOMPLETE until it.
   */
  public Subscription toSubscription(String accountId, String subscriptionId, Instant createdAt) {
    SubscriptionStatus status =
        trialEndsOn == null ? SubscriptionStatus.INCOMPLETE : SubscriptionStatus.TRIALING;
    Lifecycle lifecycle =
        trialEndsOn == null ? Lifecycle.NONE : new Lifecycle(trialEndsOn, null, null, null, null);
    return new Subscription(
        accountId,
        subscriptionId,
        sku,
        price,
        email,
        paymentMethod,
        schedule,
        status,
        1,
        schedule.sendsReminders() ? schedule.reminderDate(1) : null,
        schedule.dueDate(1),
        null,
        null,
        createdAt,
        0,
        requestHash,
        locale,
        lifecycle);
  }
}
