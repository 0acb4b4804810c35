package dev.billing.store;

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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;

/**
 * A monthly 9.99 USD subscription billed on the 15th from February 2026, reminded 3 days before.
 */
final class Fixtures {
  static final byte[] KEY = "test-page-token-key-32-bytes-min".getBytes(StandardCharsets.US_ASCII);
  static final Instant CREATED = Instant.parse("2026-01-10T09:00:00Z");
  static final BillingSchedule SCHEDULE =
      new BillingSchedule(YearMonth.of(2026, 2), 15, Term.MONTHLY, "Europe/Paris", 3);
  static final PaymentMethod CARD = new PaymentMethod("pm_card_visa", "Visa 4242");
  static final Money PRICE = Money.parse("9.99", "USD");

  private Fixtures() {}

  static Subscription subscription(String accountId, String subscriptionId) {
    return new Subscription(
        accountId,
        subscriptionId,
        "SKU-PRO",
        PRICE,
        "ada@example.com",
        CARD,
        SCHEDULE,
        SubscriptionStatus.ACTIVE,
        1,
        LocalDate.of(2026, 2, 12),
        LocalDate.of(2026, 2, 15),
        null,
        null,
        CREATED,
        1,
        "req-hash-1");
  }

  static RecordInput created(Subscription subscription) {
    return new RecordInput(
        "create",
        null,
        subscription,
        HistoryEvent.SUBSCRIPTION_CREATED,
        Process.API,
        "api:ada",
        "subscription created",
        null,
        null,
        CREATED);
  }

  static RecordInput reminderSent(Subscription current, Instant at) {
    return new RecordInput(
        "cycle-" + current.cycle() + "/reminder",
        current,
        current.withReminderSent(at).withVersion(current.version() + 1),
        HistoryEvent.REMINDER_SENT,
        Process.REMINDER,
        "system",
        "reminder sent",
        null,
        null,
        at);
  }

  /** Cycle paid at {@code at}: period completed, receipt, subscription on to the next cycle. */
  static RecordInput paid(Subscription current, int attempt, String transactionId, Instant at) {
    long cycle = current.cycle();
    Subscription next =
        current
            .withStatus(SubscriptionStatus.ACTIVE)
            .withLastPaymentAt(at)
            .scheduledFor(cycle + 1)
            .withVersion(current.version() + 1);
    return new RecordInput(
        "cycle-" + cycle + "/charge-" + attempt,
        current,
        next,
        HistoryEvent.PAYMENT_SUCCEEDED,
        attempt == 1 ? Process.INITIAL : Process.RETRY,
        "system",
        "charged 9.99 USD",
        period(current, PeriodStatus.COMPLETED, attempt, transactionId, at),
        receipt(current, cycle, at, transactionId),
        at);
  }

  static Period period(
      Subscription s, PeriodStatus status, int attempts, String transactionId, Instant at) {
    return new Period(
        s.accountId(),
        s.subscriptionId(),
        s.cycle(),
        s.schedule().dueDate(s.cycle()),
        s.price(),
        status,
        attempts,
        transactionId,
        null,
        null,
        at);
  }

  /** The period a change leaves SCHEDULED: the record's cycle, due date and price, no attempt. */
  static Period scheduled(Subscription s, Instant at) {
    return new Period(
        s.accountId(),
        s.subscriptionId(),
        s.cycle(),
        s.schedule().dueDate(s.cycle()),
        s.price(),
        PeriodStatus.SCHEDULED,
        0,
        null,
        null,
        null,
        at);
  }

  static Receipt receipt(Subscription s, long cycle, Instant processedAt, String transactionId) {
    return new Receipt(
        s.accountId(),
        s.subscriptionId(),
        cycle,
        s.sku(),
        s.email(),
        s.price(),
        processedAt,
        transactionId,
        s.paymentMethod().mask(),
        null);
  }
}
