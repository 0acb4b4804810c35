package dev.billing.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.temporal.failure.ApplicationFailure;
import org.slf4j.Marker;

/**
 * Drops the Temporal SDK's "Activity failure" WARN, stack trace included, when the activity failed
 * on purpose: a non-retryable {@link ApplicationFailure} is how an activity reports an outcome (a
 * declined card, a bounced address), and the activity logs that outcome itself, in one line. Any
 * other failure (a bug, a timeout, a retryable error) keeps the SDK's line and its stack trace.
 */
public final class DeliberateActivityFailureLogging extends TurboFilter {
  static final String SDK_LOGGER = "io.temporal.internal.activity.ActivityTaskExecutors";

  DeliberateActivityFailureLogging() {}

  /** Installs the filter on the logging context; call after whatever configures it last. */
  public static void install() {
    TurboFilters.installOnce(
        new DeliberateActivityFailureLogging(), "deliberate-activity-failure-logging");
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (!logger.getName().startsWith(SDK_LOGGER)) {
      return FilterReply.NEUTRAL;
    }
    Throwable failure =
        t != null
            ? t
            : params != null
                    && params.length > 0
                    && params[params.length - 1] instanceof Throwable last
                ? last
                : null;
    return failure instanceof ApplicationFailure application && application.isNonRetryable()
        ? FilterReply.DENY
        : FilterReply.NEUTRAL;
  }
}
