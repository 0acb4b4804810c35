package dev.billing.domain;

import java.util.List;
import java.util.Objects;

/**
 * How an unpaid period is retried. The policy in force when a period's first collection attempt
 * fails is snapshotted into that period, so a configuration change never alters dunning already
 * under way.
 *
 * @param retryAfterDays retry k happens k-th value days after the period's due date, at the due
 *     date's time of day in the subscription's zone (offsets from the anchor-derived due date, not
 *     from the previous attempt, so a late attempt does not push the later ones back)
 * @param finalOutcome what happens when the last retry fails too
 * @param staleAfterDays an unpaid period older than this (days after its due date) is no longer
 *     collected and becomes STALE; 0 means never (policies snapshotted before the setting existed
 *     read as 0)
 * @param firstPaymentRetryAfterDays the retries of a subscription's first charge (status {@link
 *     SubscriptionStatus#INCOMPLETE}), in days after its due date like {@code retryAfterDays}; when
 *     they are used up the subscription is INCOMPLETE_EXPIRED (see {@link #firstPayment()}). Null
 *     (a policy recorded before the setting existed) reads as {@link
 *     #DEFAULT_FIRST_PAYMENT_RETRY_AFTER_DAYS}
 */
public record DunningPolicy(
    List<Integer> retryAfterDays,
    FinalOutcome finalOutcome,
    int staleAfterDays,
    List<Integer> firstPaymentRetryAfterDays) {

  public static final int DEFAULT_STALE_AFTER_DAYS = 90;

  /**
   * A first charge is retried the next day and two days later, then the subscription expires: a
   * customer who never paid has had no service, so three attempts over three days are enough
   * (Stripe gives 23 hours and no retry), and a new payment method charges at once meanwhile.
   */
  public static final List<Integer> DEFAULT_FIRST_PAYMENT_RETRY_AFTER_DAYS = List.of(1, 3);

  /** A first payment is retried for at most this many days after its due date. */
  public static final int MAX_FIRST_PAYMENT_DAYS = 14;

  public DunningPolicy(
      List<Integer> retryAfterDays, FinalOutcome finalOutcome, int staleAfterDays) {
    this(retryAfterDays, finalOutcome, staleAfterDays, null);
  }

  public DunningPolicy(List<Integer> retryAfterDays, FinalOutcome finalOutcome) {
    this(retryAfterDays, finalOutcome, DEFAULT_STALE_AFTER_DAYS);
  }

  public enum FinalOutcome {
    /** End the subscription. */
    CANCEL,
    /** Pause the subscription (open-ended) until it is resumed; the period stays ERROR. */
    PAUSE,
    /** Keep billing later periods; the period stays ERROR for manual repayment or a waiver. */
    LEAVE_UNPAID,
    /**
     * Only for a first payment ({@link DunningPolicy#firstPayment()}), never configured: the
     * subscription is INCOMPLETE_EXPIRED and the period is closed, not owed.
     */
    EXPIRE
  }

  public static final DunningPolicy DEFAULT =
      new DunningPolicy(List.of(1, 3, 5, 7), FinalOutcome.LEAVE_UNPAID);

  public DunningPolicy {
    Objects.requireNonNull(finalOutcome, "finalOutcome");
    if (staleAfterDays < 0 || staleAfterDays > 3650) {
      throw new IllegalArgumentException("staleAfterDays must be between 0 (never) and 3650");
    }
    retryAfterDays = rising(retryAfterDays, 60, "retryAfterDays");
    firstPaymentRetryAfterDays =
        firstPaymentRetryAfterDays == null
            ? DEFAULT_FIRST_PAYMENT_RETRY_AFTER_DAYS
            : rising(
                firstPaymentRetryAfterDays, MAX_FIRST_PAYMENT_DAYS, "firstPaymentRetryAfterDays");
  }

  /**
   * The policy a subscription's first charge is retried by: the first-payment retries, then EXPIRE.
   * Nothing of it turns stale: an expired first period is closed, not left owed.
   */
  public DunningPolicy firstPayment() {
    return new DunningPolicy(
        firstPaymentRetryAfterDays, FinalOutcome.EXPIRE, 0, firstPaymentRetryAfterDays);
  }

  /** This policy retries a first payment: its end is INCOMPLETE_EXPIRED. */
  public boolean expires() {
    return finalOutcome == FinalOutcome.EXPIRE;
  }

  private static List<Integer> rising(List<Integer> days, int max, String name) {
    List<Integer> copy = List.copyOf(days);
    int previous = 0;
    for (int day : copy) {
      if (day <= previous || day > max) {
        throw new IllegalArgumentException(
            name + " must rise strictly, each between 1 and " + max + " days: " + copy);
      }
      previous = day;
    }
    return copy;
  }
}
