package dev.billing.activities.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When an endpoint that keeps failing is disabled: every attempt failed for {@link #after} since
 * the first failure that followed its last success (its failing streak), with no gap between
 * failures longer than {@link #NEW_STREAK_AFTER}. A pure rule: delivery reads the endpoint, asks it
 * after each attempt and writes what it says.
 */
public final class EndpointDisabling {
  /** The default time an endpoint may fail before it is disabled. */
  public static final Duration DEFAULT_AFTER = Duration.ofDays(5);

  /** The error of a delivery ended because its endpoint is disabled. */
  public static final String ENDPOINT_DISABLED = "endpoint_disabled";

  /**
   * Errors that are ours, not the endpoint's: a worker without the API's secret must not disable
   * every endpoint it cannot sign for.
   */
  private static final String SECRET_UNREADABLE = "secret_unreadable";

  /**
   * How often a running streak's last failure is written: one write per endpoint in that time at
   * most, however many deliveries fail, so the stored time is at most this much behind.
   */
  public static final Duration NOTE_FAILURE_EVERY = Duration.ofMinutes(10);

  /**
   * A gap since the streak's last failure longer than this starts a new streak: the endpoint got
   * nothing in between (no events, or deliveries given up), so it was not seen failing. A delivery
   * retries at most an hour apart (DeliveryActivityOptions), the stored time may be {@link
   * #NOTE_FAILURE_EVERY} behind, and the rest is margin for a POST's timeout, workers' clocks and a
   * worker restarting.
   */
  public static final Duration NEW_STREAK_AFTER = Duration.ofHours(2);

  /** What a failed attempt does to its endpoint. */
  public enum Step {
    /** Nothing: the failure is ours, or the streak runs and is not long enough yet. */
    NONE,
    /** The first failure after a success: the streak starts now. */
    START_STREAK,
    /** The streak read saw no failure for {@link #NEW_STREAK_AFTER}: a new one starts now. */
    RESTART_STREAK,
    /** The streak runs, too short to disable, and its last failure was noted a while ago. */
    NOTE_FAILURE,
    /** The streak has lasted long enough: disable the endpoint. */
    DISABLE
  }

  private final Duration after;

  public EndpointDisabling(Duration after) {
    Objects.requireNonNull(after, "after");
    if (after.isNegative() || after.isZero()) {
      throw new IllegalArgumentException("the time before disabling must be positive: " + after);
    }
    this.after = after;
  }

  public Duration after() {
    return after;
  }

  /**
   * @param error the failed attempt's error ("http_503", "timeout", ...)
   * @param failingSince the endpoint's streak as read before the attempt, or null when none ran
   * @param lastFailedAt its last failure noted, as read before the attempt; null when none was (a
   *     streak started before it was stored): the streak's start stands for it
   * @param now when the attempt was recorded
   */
  public Step afterFailure(String error, Instant failingSince, Instant lastFailedAt, Instant now) {
    if (SECRET_UNREADABLE.equals(error)) {
      return Step.NONE;
    }
    if (failingSince == null) {
      return Step.START_STREAK;
    }
    Instant last =
        lastFailedAt == null || lastFailedAt.isBefore(failingSince) ? failingSince : lastFailedAt;
    Duration gap = Duration.between(last, now);
    if (gap.compareTo(NEW_STREAK_AFTER) > 0) {
      return Step.RESTART_STREAK;
    }
    if (Duration.between(failingSince, now).compareTo(after) >= 0) {
      return Step.DISABLE;
    }
    return gap.compareTo(NOTE_FAILURE_EVERY) >= 0 ? Step.NOTE_FAILURE : Step.NONE;
  }

  /** Whether a success must end the streak read before it: a write only when one runs. */
  public static boolean successEndsStreak(Instant failingSince) {
    return failingSince != null;
  }

  private static String describe(Duration duration) {
    if (duration.toHoursPart() == 0
        && duration.toMinutesPart() == 0
        && duration.toSecondsPart() == 0
        && duration.toNanosPart() == 0) {
      long days = duration.toDays();
      return days + (days == 1 ? " day" : " days");
    }
    if (duration.toMinutesPart() == 0
        && duration.toSecondsPart() == 0
        && duration.toNanosPart() == 0) {
      long hours = duration.toHours();
      return hours + (hours == 1 ? " hour" : " hours");
    }
    return duration.toString();
  }

  /** The disabled reason an operator reads. */
  public String reason(Instant failingSince, String lastError) {
    return "Every delivery failed for "
        + describe(after)
        + " or more: failing since "
        + failingSince
        + ", the last with "
        + lastError
        + ".";
  }
}
