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

  @Test
  void theFirstFailureAfterASuccessStartsTheStreak() {
    assertThat(rule.afterFailure("http_503", null, SINCE)).isEqualTo(Step.START_STREAK);
    assertThat(rule.afterFailure("timeout", null, SINCE)).isEqualTo(Step.START_STREAK);
    assertThat(rule.afterFailure("address_not_public", null, SINCE)).isEqualTo(Step.START_STREAK);
  }

  @Test
  void theStreakDisablesOnceItLastedTheConfiguredTimeNotBefore() {
    assertThat(rule.afterFailure("http_503", SINCE, SINCE.plus(Duration.ofDays(1))))
        .isEqualTo(Step.NONE);
    assertThat(rule.afterFailure("http_503", SINCE, SINCE.plus(Duration.ofDays(5)).minusMillis(1)))
        .isEqualTo(Step.NONE);
    assertThat(rule.afterFailure("http_503", SINCE, SINCE.plus(Duration.ofDays(5))))
        .isEqualTo(Step.DISABLE);
    assertThat(rule.afterFailure("http_410", SINCE, SINCE.plus(Duration.ofDays(9))))
        .isEqualTo(Step.DISABLE);
  }

  @Test
  void aTimeBeforeTheStreakStartDisablesNothing() {
    // Another worker's clock a little behind the one that started the streak.
    assertThat(rule.afterFailure("http_503", SINCE, SINCE.minusSeconds(2))).isEqualTo(Step.NONE);
  }

  @Test
  void ourOwnFailureNeitherStartsNorLengthensAStreak() {
    assertThat(rule.afterFailure("secret_unreadable", null, SINCE)).isEqualTo(Step.NONE);
    assertThat(rule.afterFailure("secret_unreadable", SINCE, SINCE.plus(Duration.ofDays(30))))
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
    assertThat(hour.afterFailure("http_500", SINCE, SINCE.plus(Duration.ofMinutes(60))))
        .isEqualTo(Step.DISABLE);
    assertThatThrownBy(() -> new EndpointDisabling(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EndpointDisabling(Duration.ofDays(-1)))
        .isInstanceOf(IllegalArgumentException.class);
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
