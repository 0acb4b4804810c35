package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.workflows.OpenPeriod;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * When the retries of an unpaid period happen. Retry k is at the start of day {@code dunningFrom +
 * retryAfterDays[k]} in the subscription's zone: measured from the due date (or the return date of
 * a payment that came back), never from the previous attempt, so a late attempt does not push the
 * later ones back. Pure functions: safe in workflow code.
 *
 * <p>Late failures: a date counts as used once it has come before a failure is known. The failure
 * of a pending charge (a bank debit) is known only when it settles, so its period keeps the dates
 * that passed while it settled: {@link #usedBeforeLateFailure}. E.g. with retries after 1, 3, 5 and
 * 7 days, a bank debit found FAILED at due+5 is retried at once (due+5), then at due+7; one found
 * FAILED at due+10 is still retried once, at due+10, then dunning is exhausted.
 *
 * <p>Unknown outcomes: a retry date of a period whose last attempt got no answer looks that key up
 * first; when the gateway proves it made no charge, the date sends attempt n+1. The unknown attempt
 * used the date it was made on, as any attempt does: dates are counted, never outcomes, so an
 * outage cannot stretch dunning; it costs no failure notice. See {@link PaymentCollector}.
 */
public final class DunningSchedule {
  private DunningSchedule() {}

  /**
   * How long to wait for a bank debit's settlement event before asking the gateway. Bank debits
   * settle in 1 to 4 business days; 5 calendar days covers most, and a lookup that still answers
   * PENDING just waits this long again.
   */
  public static final Duration SETTLEMENT_TIMEOUT = Duration.ofDays(5);

  /** When the gateway could not be asked about a pending charge: ask again this much later. */
  public static final Duration LOOKUP_RETRY_AFTER = Duration.ofDays(1);

  /**
   * How long after an unanswered last attempt its key is looked up to end dunning: long enough for
   * a request still in flight at the gateway to have created its charge, so NOT_FOUND is proof.
   */
  public static final Duration RESOLVE_AFTER = Duration.ofHours(1);

  public static Instant retryAt(
      BillingSchedule schedule, LocalDate dunningFrom, DunningPolicy policy, int index) {
    return schedule.startOfDay(dunningFrom.plusDays(policy.retryAfterDays().get(index)));
  }

  /** The retry a period in dunning waits for; null when its schedule is used up. */
  public static Instant nextRetryAt(BillingSchedule schedule, OpenPeriod period) {
    if (period.retriesUsed() >= period.policy().retryAfterDays().size()) {
      return null;
    }
    return retryAt(schedule, period.dunningFrom(), period.policy(), period.retriesUsed());
  }

  /**
   * Retries used up at {@code now}: the ones already used, and every retry date that has come,
   * attempted or not. After an attempt at a retry date, that date is used up; after an extra
   * attempt (a new payment method) the schedule goes on with its next date; dates missed while the
   * worker was down collapse into one attempt instead of a burst.
   */
  public static int usedAt(
      BillingSchedule schedule,
      LocalDate dunningFrom,
      DunningPolicy policy,
      int alreadyUsed,
      Instant now) {
    int used = alreadyUsed;
    while (used < policy.retryAfterDays().size()
        && !retryAt(schedule, dunningFrom, policy, used).isAfter(now)) {
      used++;
    }
    return used;
  }

  /**
   * Retries used up when the failure of a pending charge is learned late (a bank debit found FAILED
   * days after its attempt): only the dates that had come when the attempt was made ({@code
   * usedAtAttempt}); the dates that passed while it settled are not lost. The next retry is then at
   * max(now, next unused date), and a period whose attempt was made before its last retry date
   * always keeps at least one retry. If that retry fails too, every date that has come by then is
   * used up ({@link #usedAt}), so late failures cannot stretch the schedule beyond one catch-up.
   */
  public static int usedBeforeLateFailure(DunningPolicy policy, int usedAtAttempt) {
    return Math.min(usedAtAttempt, policy.retryAfterDays().size());
  }

  public static boolean exhausted(OpenPeriod period) {
    return period.retriesUsed() >= period.policy().retryAfterDays().size();
  }
}
