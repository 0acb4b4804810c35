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
 */
public record DunningPolicy(List<Integer> retryAfterDays, FinalOutcome finalOutcome) {

  public enum FinalOutcome {
    /** End the subscription. */
    CANCEL,
    /** Stop billing until the customer resumes (available once pausing exists; until then LEAVE_UNPAID). */
    PAUSE,
    /** Keep billing later periods; the period stays ERROR for manual repayment or a waiver. */
    LEAVE_UNPAID
  }

  public static final DunningPolicy DEFAULT =
      new DunningPolicy(List.of(1, 3, 5, 7), FinalOutcome.LEAVE_UNPAID);

  public DunningPolicy {
    Objects.requireNonNull(finalOutcome, "finalOutcome");
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
