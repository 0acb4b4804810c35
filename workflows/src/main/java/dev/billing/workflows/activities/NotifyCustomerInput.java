package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One customer notice; the notifier renders it by kind.
 *
 * @param messageId from {@link dev.billing.domain.BillingIds#messageId}, e.g. kind + cycle +
 *     attempt
 * @param date the date the notice is about: the next retry for PAYMENT_FAILED (null when none is
 *     left), the end date for SUBSCRIPTION_CANCELLED
 * @param reason the gateway's decline message or the cancellation reason; may be null
 * @param at workflow time of the notice
 * @param locale BCP 47 tag of the subscription ({@code Subscription.locale()}): how amounts and
 *     dates are written; null means {@value dev.billing.domain.Subscription#DEFAULT_LOCALE}
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
     * payment's date (null: the date of {@code at}). Its message id is {@link
     * dev.billing.domain.BillingIds#receiptMessageId}, the one RecordChange mails it under.
     */
    PAYMENT_RECEIPT,
    /** {@code date}: when billing restarts by itself, null for an open-ended pause. */
    SUBSCRIPTION_PAUSED,
    /** {@code date}: the next payment date. */
    SUBSCRIPTION_RESUMED,
    /** {@code sku}/{@code amount}: the new plan; {@code date}: the first payment at that price. */
    PLAN_CHANGED,
    /** {@code amount}: what was refunded; {@code date}: the refund's date. */
    REFUND_ISSUED,
    /**
     * The first payment was never collected: the subscription ended before it began, nothing is
     * owed. {@code amount}: the first payment; {@code reason}: the last decline.
     */
    SUBSCRIPTION_EXPIRED
  }

  public NotifyCustomerInput {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(at, "at");
    locale = locale == null || locale.isBlank() ? Subscription.DEFAULT_LOCALE : locale;
  }

  /** A notice in the default locale. */
  public NotifyCustomerInput(
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
      Instant at) {
    this(
        kind,
        messageId,
        accountId,
        subscriptionId,
        cycle,
        email,
        sku,
        amount,
        date,
        paymentMask,
        reason,
        timeZone,
        at,
        null);
  }

  /**
   * A notice of {@code kind} to the customer of {@code sub}, about the cycle it is on, with its
   * identity, address, plan, payment mask, zone and locale; the call site names the rest.
   */
  public static Builder about(Kind kind, Subscription sub) {
    return new Builder(kind, sub);
  }

  /** Names each field of a notice at its call site; the payload is the record's, unchanged. */
  public static final class Builder {
    private final Kind kind;
    private final Subscription sub;
    private String messageId;
    private long cycle;
    private String sku;
    private String paymentMask;
    private Money amount;
    private LocalDate date;
    private String reason;
    private Instant at;

    private Builder(Kind kind, Subscription sub) {
      this.kind = kind;
      this.sub = sub;
      this.cycle = sub.cycle();
      this.sku = sub.sku();
      this.paymentMask = sub.paymentMethod().mask();
    }

    public Builder messageId(String id) {
      messageId = id;
      return this;
    }

    public Builder cycle(long about) {
      cycle = about;
      return this;
    }

    /** The plan the notice names; the subscription's own by default. */
    public Builder sku(String plan) {
      sku = plan;
      return this;
    }

    /** The mask of the method charged; the subscription's own by default. */
    public Builder paymentMask(String mask) {
      paymentMask = mask;
      return this;
    }

    public Builder amount(Money money) {
      amount = money;
      return this;
    }

    /**
     * See the kinds: the next retry, the end date, the restart or first payment, the refund's date.
     */
    public Builder date(LocalDate day) {
      date = day;
      return this;
    }

    /** The decline message, the cancellation or pause reason, or the receipt's transaction id. */
    public Builder reason(String text) {
      reason = text;
      return this;
    }

    public Builder at(Instant time) {
      at = time;
      return this;
    }

    public NotifyCustomerInput build() {
      return new NotifyCustomerInput(
          kind,
          messageId,
          sub.accountId(),
          sub.subscriptionId(),
          cycle,
          sub.email(),
          sku,
          amount,
          date,
          paymentMask,
          reason,
          sub.schedule().timeZone(),
          at,
          sub.locale());
    }
  }
}
