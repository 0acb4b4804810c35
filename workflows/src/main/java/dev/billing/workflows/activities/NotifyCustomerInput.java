package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One customer notice; the notifier renders it by kind.
 *
 * @param messageId from {@link dev.billing.domain.BillingIds#messageId}, e.g. kind + cycle + attempt
 * @param date the date the notice is about: the next retry for PAYMENT_FAILED (null when none is
 *     left), the end date for SUBSCRIPTION_CANCELLED
 * @param reason the gateway's decline message or the cancellation reason; may be null
 * @param at workflow time of the notice
 * @param locale BCP 47 tag of the subscription ({@code Subscription.locale()}): how amounts and dates
 *     are written; null means {@value dev.billing.domain.Subscription#DEFAULT_LOCALE}
 */
public record NotifyCustomerInput(
    Kind kind,
    String messageId,
    String accountId,
    String subscriptionId,
    long cycle,
    String email,
    String sku,
    Money amount,
    LocalDate date,
    String paymentMask,
    String reason,
    String timeZone,
    Instant at,
    String locale) {

  /**
   * What the notice is about. The reminder (and, in a trial, the trial-ending notice) goes through
   * {@link ReminderActivities}; these are the others.
   */
  public enum Kind {
    PAYMENT_FAILED,
    SUBSCRIPTION_CANCELLED,
    /**
     * A successful charge; {@code reason} carries the gateway's transaction id, {@code date} the
     * payment's date (null: the date of {@code at}). Its message id is
     * {@link dev.billing.domain.BillingIds#receiptMessageId}, the one RecordChange mails it under.
     */
    PAYMENT_RECEIPT,
    /** {@code date}: when billing restarts by itself, null for an open-ended pause. */
    SUBSCRIPTION_PAUSED,
    /** {@code date}: the next payment date. */
    SUBSCRIPTION_RESUMED,
    /** {@code sku}/{@code amount}: the new plan; {@code date}: the first payment at that price. */
    PLAN_CHANGED,
    /** {@code amount}: what was refunded; {@code date}: the refund's date. */
    REFUND_ISSUED
  }

  public NotifyCustomerInput {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(at, "at");
    locale = locale == null || locale.isBlank() ? Subscription.DEFAULT_LOCALE : locale;
  }

  /** A notice in the default locale (the contract before locales). */
  public NotifyCustomerInput(Kind kind, String messageId, String accountId, String subscriptionId,
      long cycle, String email, String sku, Money amount, LocalDate date, String paymentMask,
      String reason, String timeZone, Instant at) {
    this(kind, messageId, accountId, subscriptionId, cycle, email, sku, amount, date, paymentMask,
        reason, timeZone, at, null);
  }
}
