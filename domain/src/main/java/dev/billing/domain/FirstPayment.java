package dev.billing.domain;

import java.time.LocalDate;
import java.util.List;

/**
 * A subscription's first payment: which failure is one, and when it is retried and expires. Pure,
 * so the workflow and the documentation's dates come from the same rule.
 *
 * <p>A failure is a first payment's when the subscription has never paid (no collected period, so
 * {@code lastPaymentAt} is null) and it is INCOMPLETE, or TRIALING and its trial's first charge
 * failed. A customer who has paid before is PAST_DUE and dunned by the regular schedule instead.
 */
public final class FirstPayment {
  private FirstPayment() {}

  /** Whether a failed charge now would be the subscription's first payment failing. */
  public static boolean applies(Subscription sub) {
    if (sub.lastPaymentAt() != null) {
      return false;
    }
    return sub.status() == SubscriptionStatus.INCOMPLETE
        || sub.status() == SubscriptionStatus.TRIALING;
  }

  /** The dates a first charge due on {@code dueDate} is retried on, in the subscription's zone. */
  public static List<LocalDate> retryDates(LocalDate dueDate, DunningPolicy policy) {
    return policy.firstPaymentRetryAfterDays().stream().map(dueDate::plusDays).toList();
  }

  /**
   * The date the subscription expires on if every attempt is declined: the last retry date (the due
   * date itself when there is no retry). An attempt whose outcome is unknown then is looked up
   * first, so expiry can come later, never sooner.
   */
  public static LocalDate expiresOn(LocalDate dueDate, DunningPolicy policy) {
    List<LocalDate> dates = retryDates(dueDate, policy);
    return dates.isEmpty() ? dueDate : dates.get(dates.size() - 1);
  }
}
