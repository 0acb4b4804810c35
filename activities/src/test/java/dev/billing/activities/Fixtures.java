package dev.billing.activities;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.activities.SendReminderInput;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;

/** One monthly subscription billed on the 1st from February 2026, reminded 3 days before. */
final class Fixtures {
  private Fixtures() {}

  static final String ACCOUNT = "acc-1";
  static final String SUBSCRIPTION = "sub-1";
  static final Money PRICE = new Money(999, "USD");
  static final PaymentMethod VISA = new PaymentMethod("pm_card_visa", "Visa •••• 4242");
  static final Instant CREATED_AT = Instant.parse("2026-01-15T10:00:00Z");
  static final Instant REMINDED_AT = Instant.parse("2026-01-29T00:00:00Z");
  static final String REMINDER_ID = BillingIds.messageId(SUBSCRIPTION, 1, "reminder");

  /**
   * The fixture's subscription with another price, zone, status and locale (one subscription id
   * each).
   */
  static Subscription subscription(
      String subscriptionId,
      Money price,
      String timeZone,
      SubscriptionStatus status,
      String locale) {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2026, 2), 1, Term.MONTHLY, timeZone, 3);
    return new Subscription(
        ACCOUNT,
        subscriptionId,
        "pro-monthly",
        price,
        "ana@example.com",
        VISA,
        schedule,
        status,
        1,
        LocalDate.of(2026, 1, 29),
        LocalDate.of(2026, 2, 1),
        null,
        null,
        CREATED_AT,
        1,
        "req-hash-1",
        locale,
        null);
  }

  static RecordInput creation(Subscription subscription) {
    return new RecordInput(
        "create",
        null,
        subscription,
        HistoryEvent.SUBSCRIPTION_CREATED,
        Process.API,
        "api:alice",
        "created through the API",
        null,
        null,
        CREATED_AT);
  }

  /** The reminder of cycle 1 of {@code subscription} (already created), recorded as version 2. */
  static SendReminderInput reminderOf(Subscription subscription) {
    RecordInput change =
        new RecordInput(
            "cycle-1/reminder",
            subscription,
            subscription.withReminderSent(REMINDED_AT).withVersion(2),
            HistoryEvent.REMINDER_SENT,
            Process.REMINDER,
            "system",
            "payment reminder sent",
            null,
            null,
            REMINDED_AT);
    return new SendReminderInput(
        BillingIds.messageId(subscription.subscriptionId(), 1, "reminder"),
        subscription.email(),
        subscription.sku(),
        subscription.price(),
        LocalDate.of(2026, 2, 1),
        subscription.paymentMethod().mask(),
        change);
  }

  /** Cycle 1 of {@code subscription} (already created) paid: period, receipt, version 2. */
  static RecordInput paid(Subscription subscription, String transactionId, Instant processedAt) {
    Subscription next = subscription.withLastPaymentAt(processedAt).scheduledFor(2).withVersion(2);
    Period period =
        new Period(
            ACCOUNT,
            subscription.subscriptionId(),
            1,
            LocalDate.of(2026, 2, 1),
            subscription.price(),
            PeriodStatus.COMPLETED,
            1,
            transactionId,
            null,
            null,
            processedAt);
    Receipt receipt =
        new Receipt(
            ACCOUNT,
            subscription.subscriptionId(),
            1,
            subscription.sku(),
            subscription.email(),
            subscription.price(),
            processedAt,
            transactionId,
            subscription.paymentMethod().mask(),
            null);
    return new RecordInput(
        "cycle-1/charge-1",
        subscription,
        next,
        HistoryEvent.PAYMENT_SUCCEEDED,
        Process.INITIAL,
        "system",
        "charged",
        period,
        receipt,
        processedAt);
  }

  static Subscription created() {
    BillingSchedule schedule =
        new BillingSchedule(YearMonth.of(2026, 2), 1, Term.MONTHLY, "UTC", 3);
    return new Subscription(
        ACCOUNT,
        SUBSCRIPTION,
        "pro-monthly",
        PRICE,
        "ana@example.com",
        VISA,
        schedule,
        SubscriptionStatus.ACTIVE,
        1,
        LocalDate.of(2026, 1, 29),
        LocalDate.of(2026, 2, 1),
        null,
        null,
        CREATED_AT,
        1,
        "req-hash-1");
  }

  static RecordInput creation() {
    return new RecordInput(
        "create",
        null,
        created(),
        HistoryEvent.SUBSCRIPTION_CREATED,
        Process.API,
        "api:alice",
        "created through the API",
        null,
        null,
        CREATED_AT);
  }

  static RecordInput reminderRecorded() {
    return new RecordInput(
        "cycle-1/reminder",
        created(),
        created().withReminderSent(REMINDED_AT).withVersion(2),
        HistoryEvent.REMINDER_SENT,
        Process.REMINDER,
        "system",
        "payment reminder sent",
        null,
        null,
        REMINDED_AT);
  }

  static SendReminderInput reminder() {
    return new SendReminderInput(
        REMINDER_ID,
        "ana@example.com",
        "pro-monthly",
        PRICE,
        LocalDate.of(2026, 2, 1),
        "Visa •••• 4242",
        reminderRecorded());
  }
}
