package dev.billing.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import io.temporal.failure.ApplicationFailure;
import org.junit.jupiter.api.Test;

class DeliberateActivityFailureLoggingTest {
  private static final String FORMAT =
      "Activity failure. ActivityId={}, activityType={}, attempt={}";

  private final LoggerContext context = new LoggerContext();
  private final Logger sdk =
      context.getLogger(DeliberateActivityFailureLogging.SDK_LOGGER + "$ActivityTaskExecutor");

  private FilterReply decide(Logger logger, Throwable failure) {
    return new DeliberateActivityFailureLogging()
        .decide(
            null,
            logger,
            Level.WARN,
            FORMAT,
            new Object[] {"id", "ChargePaymentMethod", 1, failure},
            null);
  }

  @Test
  void drops_the_sdk_line_of_an_outcome_the_activity_reported() {
    assertThat(
            decide(sdk, ApplicationFailure.newNonRetryableFailure("declined", "PaymentDeclined")))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void keeps_every_other_failure_and_every_other_logger() {
    assertThat(decide(sdk, ApplicationFailure.newFailure("gateway down", "GatewayUnavailable")))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(decide(sdk, new NullPointerException())).isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(
                context.getLogger("dev.billing.activities.PaymentActivitiesImpl"),
                ApplicationFailure.newNonRetryableFailure("declined", "PaymentDeclined")))
        .isEqualTo(FilterReply.NEUTRAL);
  }
}
