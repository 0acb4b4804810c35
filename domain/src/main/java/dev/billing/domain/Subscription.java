package dev.billing.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The full state of one subscription as the system of record holds it. The subscription's workflow
 * is its only writer; every write carries a higher {@code version} than the one before, and the
 * store rejects a write whose version is not higher than the stored one.
 *
 * @param cycle the cycle the subscription is working towards: the next one to be billed (1-based)
 * @param nextReminderDate null when no reminder is pending (drops the item from GSI-1)
 * @param nextPaymentDate null when no payment is pending (drops the item from GSI-2)
 * @param lastReminderAt null until the first reminder was sent
 * @param lastPaymentAt null until the first successful payment
 * @param requestHash fingerprint of the creating request, to detect a reused Idempotency-Key
 * @param locale BCP 47 tag for the customer's messages; null means {@value #DEFAULT_LOCALE}
 * @param lifecycle trial, pause, pending plan change, scheduled cancellation and balance; null
 *     means none of them ({@link Lifecycle#NONE})
 */
public record Subscription(
    String accountId,
    String subscriptionId,
    String sku,
    Money price,
    String email,
    PaymentMethod paymentMethod,
    BillingSchedule schedule,
    SubscriptionStatus status,
    long cycle,
    LocalDate nextReminderDate,
    LocalDate nextPaymentDate,
    Instant lastReminderAt,
    Instant lastPaymentAt,
    Instant createdAt,
    long version,
    String requestHash,
    String locale,
    Lifecycle lifecycle) {

  public static final String DEFAULT_LOCALE = "en-US";

  public Subscription {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    locale = locale == null || locale.isBlank() ? DEFAULT_LOCALE : locale;
    lifecycle = lifecycle == null ? Lifecycle.NONE : lifecycle;
  }

  /** A subscription with the default locale and no lifecycle state (trial, pause, ...). */
  public Subscription(
      String accountId,
      String subscriptionId,
      String sku,
      Money price,
      String email,
      PaymentMethod paymentMethod,
      BillingSchedule schedule,
      SubscriptionStatus status,
      long cycle,
      LocalDate nextReminderDate,
      LocalDate nextPaymentDate,
      Instant lastReminderAt,
      Instant lastPaymentAt,
      Instant createdAt,
      long version,
      String requestHash) {
    this(
        accountId,
        subscriptionId,
        sku,
        price,
        email,
        paymentMethod,
        schedule,
        status,
        cycle,
        nextReminderDate,
        nextPaymentDate,
        lastReminderAt,
        lastPaymentAt,
        createdAt,
        version,
        requestHash,
        null,
        null);
  }

  /**
   * Dates of the given cycle taken from the schedule: what a subscription waiting for it shows. No
   * reminder date when reminders are off, so GSI-1 never lists a reminder that will not be sent.
   */
  public Subscription scheduledFor(long nextCycle) {
    Copy copy = new Copy(this);
    copy.cycle = nextCycle;
    copy.nextReminderDate = schedule.sendsReminders() ? schedule.reminderDate(nextCycle) : null;
    copy.nextPaymentDate = schedule.dueDate(nextCycle);
    return copy.build();
  }

  public Subscription withStatus(SubscriptionStatus newStatus) {
    Copy copy = new Copy(this);
    copy.status = newStatus;
    return copy.build();
  }

  public Subscription withVersion(long newVersion) {
    Copy copy = new Copy(this);
    copy.version = newVersion;
    return copy.build();
  }

  /** The reminder of the current cycle went out: it leaves GSI-1 until the next cycle. */
  public Subscription withReminderSent(Instant at) {
    Copy copy = new Copy(this);
    copy.nextReminderDate = null;
    copy.lastReminderAt = at;
    return copy.build();
  }

  public Subscription withLastPaymentAt(Instant at) {
    Copy copy = new Copy(this);
    copy.lastPaymentAt = at;
    return copy.build();
  }

  public Subscription withPaymentMethod(PaymentMethod method) {
    Copy copy = new Copy(this);
    copy.paymentMethod = method;
    return copy.build();
  }

  /** Both date-index keys at once (null drops the item from that index). */
  public Subscription withDates(LocalDate reminderDate, LocalDate paymentDate) {
    Copy copy = new Copy(this);
    copy.nextReminderDate = reminderDate;
    copy.nextPaymentDate = paymentDate;
    return copy.build();
  }

  public Subscription withPlan(String newSku, Money newPrice) {
    Copy copy = new Copy(this);
    copy.sku = newSku;
    copy.price = newPrice;
    return copy.build();
  }

  /** Where and in which language the customer's messages go. */
  public Subscription withCustomer(String newEmail, String newLocale) {
    Copy copy = new Copy(this);
    copy.email = newEmail;
    copy.locale = newLocale;
    return copy.build();
  }

  public Subscription withSchedule(BillingSchedule newSchedule) {
    Copy copy = new Copy(this);
    copy.schedule = newSchedule;
    return copy.build();
  }

  /**
   * What the next scheduled charge asks for: the price plus the carried balance (a debit adds, a
   * credit subtracts), never below zero.
   */
  public Money amountDue() {
    return plusBalance(price);
  }

  /**
   * What a cycle's charge will ask for: its price (pending plan change included) plus the balance.
   */
  public Money amountDueFor(long forCycle) {
    return plusBalance(priceFor(forCycle));
  }

  private Money plusBalance(Money base) {
    Money balance = lifecycle.balance();
    if (balance == null) {
      return base;
    }
    Money due = base.plus(balance);
    return due.minor() < 0 ? Money.zero(base.currency()) : due;
  }

  /** After the next charge: the balance it used up is gone; credit beyond the price is kept. */
  public Subscription withBalanceCharged() {
    Money balance = lifecycle.balance();
    if (balance == null) {
      return this;
    }
    Money left = price.plus(balance);
    return withLifecycle(lifecycle.withBalance(left.minor() < 0 ? left : null));
  }

  /** The price of a cycle: a pending plan change applies from its effective cycle on. */
  public Money priceFor(long forCycle) {
    PendingPlanChange change = lifecycle.pendingChange();
    return change != null && forCycle >= change.effectiveCycle() ? change.price() : price;
  }

  public Subscription withLifecycle(Lifecycle newLifecycle) {
    Copy copy = new Copy(this);
    copy.lifecycle = newLifecycle;
    return copy.build();
  }

  /** Nothing more is due: the item leaves both date indexes. */
  public Subscription withNothingDue() {
    Copy copy = new Copy(this);
    copy.nextReminderDate = null;
    copy.nextPaymentDate = null;
    return copy.build();
  }

  /** A field-by-field copy for the {@code with...} methods: each changes only what it names. */
  private static final class Copy {
    private String accountId;
    private String subscriptionId;
    private String sku;
    private Money price;
    private String email;
    private PaymentMethod paymentMethod;
    private BillingSchedule schedule;
    private SubscriptionStatus status;
    private long cycle;
    private LocalDate nextReminderDate;
    private LocalDate nextPaymentDate;
    private Instant lastReminderAt;
    private Instant lastPaymentAt;
    private Instant createdAt;
    private long version;
    private String requestHash;
    private String locale;
    private Lifecycle lifecycle;

    Copy(Subscription from) {
      accountId = from.accountId;
      subscriptionId = from.subscriptionId;
      sku = from.sku;
      price = from.price;
      email = from.email;
      paymentMethod = from.paymentMethod;
      schedule = from.schedule;
      status = from.status;
      cycle = from.cycle;
      nextReminderDate = from.nextReminderDate;
      nextPaymentDate = from.nextPaymentDate;
      lastReminderAt = from.lastReminderAt;
      lastPaymentAt = from.lastPaymentAt;
      createdAt = from.createdAt;
      version = from.version;
      requestHash = from.requestHash;
      locale = from.locale;
      lifecycle = from.lifecycle;
    }

    Subscription build() {
      return new Subscription(
          accountId,
          subscriptionId,
          sku,
          price,
          email,
          paymentMethod,
          schedule,
          status,
          cycle,
          nextReminderDate,
          nextPaymentDate,
          lastReminderAt,
          lastPaymentAt,
          createdAt,
          version,
          requestHash,
          locale,
          lifecycle);
    }
  }
}
