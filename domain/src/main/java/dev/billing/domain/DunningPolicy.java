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
 */
public record DunningPolicy(
    List<Integer> retryAfterDays, FinalOutcome finalOutcome, int staleAfterDays) {

  public static final int DEFAULT_STALE_AFTER_DAYS = 90;

  public DunningPolicy(List<Integer> retryAfterDays, FinalOutcome finalOutcome) {
    this(retryAfterDays, finalOutcome, DEFAULT_STALE_AFTER_DAYS);
  }

  public enum FinalOutcome {
    /** End the subscription. */
    CANCEL,
    /** Pause the subscription (open-ended) until it is resumed; the period stays ERROR. */
    PAUSE,
    /** Keep billing later periods; the period stays ERROR for manual repayment or a waiver. */
    LEAVE_UNPAID
  }

  public static final DunningPolicy DEFAULT =
      new DunningPolicy(List.of(1, 3, 5, 7), FinalOutcome.LEAVE_UNPAID);

  public DunningPolicy {
    Objects.requireNonNull(finalOutcome, "finalOutcome");
    if (staleAfterDays < 0 || staleAfterDays > 3650) {
      throw new IllegalArgumentException("staleAfterDays must be between 0 (never) and 3650");
    }
    retryAfterDays = List.copyOf(retryAfterDays);
    int previous = 0;
    for (int days : retryAfterDays) {
      if (days <= previous || days > 60) {
        throw new IllegalArgumentException(
            "retryAfterDays must rise strictly, each between 1 and 60 days: " + retryAfterDays);
      }
      previous = days;
    }
  }
}
