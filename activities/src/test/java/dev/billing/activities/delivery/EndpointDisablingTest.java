package dev.billing.activities.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.delivery.EndpointDisabling.Step;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The rule alone: when a failed attempt starts a streak, and when the streak disables. */
class EndpointDisablingTest {
  private static final Instant SINCE = Instant.parse("2026-03-01T08:00:00Z");
  private final EndpointDisabling rule = new EndpointDisabling(Duration.ofDays(5));

  /** A streak begun at SINCE that kept failing: its last failure noted a minute before. */
  private static Step keptFailing(EndpointDisabling rule, String error, Instant now) {
    return rule.afterFailure(error, SINCE, now.minusSeconds(60), now);
  }

  @Test
  void theFirstFailureAfterASuccessStartsTheStreak() {
    assertThat(rule.afterFailure("http_503", null, null, SINCE)).isEqualTo(Step.START_STREAK);
    assertThat(rule.afterFailure("timeout", null, null, SINCE)).isEqualTo(Step.START_STREAK);
    assertThat(rule.afterFailure("address_not_public", null, null, SINCE))
        .isEqualTo(Step.START_STREAK);
  }

  @Test
  void theStreakDisablesOnceItLastedTheConfiguredTimeNotBefore() {
    assertThat(keptFailing(rule, "http_503", SINCE.plus(Duration.ofDays(1)))).isEqualTo(Step.NONE);
    assertThat(keptFailing(rule, "http_503", SINCE.plus(Duration.ofDays(5)).minusMillis(1)))
        .isEqualTo(Step.NONE);
    assertThat(keptFailing(rule, "http_503", SINCE.plus(Duration.ofDays(5))))
        .isEqualTo(Step.DISABLE);
    assertThat(keptFailing(rule, "http_410", SINCE.plus(Duration.ofDays(9))))
        .isEqualTo(Step.DISABLE);
  }

  @Test
  void aTimeBeforeTheStreakStartDisablesNothing() {
    // Another worker's clock a little behind the one that started the streak.
    assertThat(keptFailing(rule, "http_503", SINCE.minusSeconds(2))).isEqualTo(Step.NONE);
  }

  @Test
  void ourOwnFailureNeitherStartsNorLengthensAStreak() {
    assertThat(rule.afterFailure("secret_unreadable", null, null, SINCE)).isEqualTo(Step.NONE);
    assertThat(keptFailing(rule, "secret_unreadable", SINCE.plus(Duration.ofDays(30))))
        .isEqualTo(Step.NONE);
  }

  @Test
  void onlyASuccessDuringAStreakEndsIt() {
    assertThat(EndpointDisabling.successEndsStreak(SINCE)).isTrue();
    assertThat(EndpointDisabling.successEndsStreak(null)).isFalse();
  }

  @Test
  void theTimeIsConfigurableAndMustBePositive() {
    EndpointDisabling hour = new EndpointDisabling(Duration.ofHours(1));
    assertThat(keptFailing(hour, "http_500", SINCE.plus(Duration.ofMinutes(60))))
        .isEqualTo(Step.DISABLE);
    assertThatThrownBy(() -> new EndpointDisabling(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EndpointDisabling(Duration.ofDays(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aGapLongerThanAnyRetryWaitStartsANewStreakInsteadOfDisabling() {
    // Down three days, then no event for a week: the next event's first failure.
    Instant lastFailure = SINCE.plus(Duration.ofDays(3));
    Instant weekLater = lastFailure.plus(Duration.ofDays(7));
    assertThat(rule.afterFailure("http_503", SINCE, lastFailure, weekLater))
        .isEqualTo(Step.RESTART_STREAK);
    // The longest retry wait (an hour) plus the noting interval stays within the streak.
    Instant withinGap = lastFailure.plus(Duration.ofHours(1)).plus(Duration.ofMinutes(10));
    assertThat(rule.afterFailure("http_503", SINCE, lastFailure, withinGap))
        .isEqualTo(Step.NOTE_FAILURE);
    Instant atGap = lastFailure.plus(EndpointDisabling.NEW_STREAK_AFTER);
    assertThat(rule.afterFailure("http_503", SINCE, lastFailure, atGap))
        .isEqualTo(Step.NOTE_FAILURE);
    assertThat(rule.afterFailure("http_503", SINCE, lastFailure, atGap.plusMillis(1)))
        .isEqualTo(Step.RESTART_STREAK);
    assertThat(EndpointDisabling.NEW_STREAK_AFTER)
        .isGreaterThan(Duration.ofHours(1).plus(EndpointDisabling.NOTE_FAILURE_EVERY));
  }

  @Test
  void aStreakFailingWithoutGapsStillDisables() {
    Instant fiveDays = SINCE.plus(Duration.ofDays(5));
    assertThat(rule.afterFailure("http_503", SINCE, fiveDays.minusSeconds(3599), fiveDays))
        .isEqualTo(Step.DISABLE);
  }

  @Test
  void aStreakWithoutItsLastFailureNotedIsMeasuredFromItsStart() {
    // Written before LastFailedAt existed: its start is the last failure known.
    assertThat(rule.afterFailure("http_503", SINCE, null, SINCE.plus(Duration.ofMinutes(90))))
        .isEqualTo(Step.NOTE_FAILURE);
    assertThat(rule.afterFailure("http_503", SINCE, null, SINCE.plus(Duration.ofDays(6))))
        .isEqualTo(Step.RESTART_STREAK);
  }

  @Test
  void aRunningStreakNotesItsFailuresOnlyEveryFewMinutes() {
    Instant last = SINCE.plus(Duration.ofDays(1));
    assertThat(rule.afterFailure("http_503", SINCE, last, last.plus(Duration.ofMinutes(9))))
        .as("no write")
        .isEqualTo(Step.NONE);
    assertThat(rule.afterFailure("http_503", SINCE, last, last.plus(Duration.ofMinutes(10))))
        .isEqualTo(Step.NOTE_FAILURE);
    assertThat(rule.afterFailure("secret_unreadable", SINCE, last, last.plus(Duration.ofDays(9))))
        .as("ours: neither noted nor restarting")
        .isEqualTo(Step.NONE);
  }

  @Test
  void theReasonSaysSinceWhenAndTheLastError() {
    assertThat(rule.reason(SINCE, "http_503"))
        .isEqualTo(
            "Every delivery failed for 5 days or more: failing since 2026-03-01T08:00:00Z, the"
                + " last with http_503.");
    assertThat(new EndpointDisabling(Duration.ofHours(36)).reason(SINCE, "timeout"))
        .startsWith("Every delivery failed for 36 hours or more");
  }
}
