package dev.billing.bench.scenarios;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The subscriptions the benchmark bills: 9.99 USD a month on a Visa test card, as the README's
 * walk-through.
 */
public final class BenchSubscriptions {
  public static final String SKU = "plus-monthly";
  public static final Money PRICE = Money.parse("9.99", "USD");
  public static final PaymentMethod CARD = new PaymentMethod("pm_card_visa", "Visa •••• 4242");
  public static final int REMINDER_DAYS = 3;

  private BenchSubscriptions() {}

  public static String subscriptionId(String set, int i) {
    return "sub_" + set + "_" + i;
  }

  public static String accountId(String set, int i) {
    return "acc-" + set + "-" + i;
  }

  /**
   * A subscription as the API hands it to its workflow: version 0, dates filled in by the creation.
   */
  public static Subscription requested(
      String set, int i, LocalDate startDate, int billingDay, String timeZone, Instant createdAt) {
    return new Subscription(
        accountId(set, i),
        subscriptionId(set, i),
        SKU,
        PRICE,
        "customer-" + set + "-" + i + "@example.com",
        CARD,
        BillingSchedule.startingOnOrAfter(
            startDate, billingDay, Term.MONTHLY, timeZone, REMINDER_DAYS),
        SubscriptionStatus.ACTIVE,
        1,
        null,
        null,
        null,
        null,
        createdAt,
        0,
        "bench");
  }
}
