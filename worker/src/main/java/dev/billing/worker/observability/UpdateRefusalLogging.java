package dev.billing.worker.observability;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import dev.billing.runtime.TurboFilters;
import org.slf4j.MDC;
import org.slf4j.Marker;

/**
 * Drops the Java SDK's "Workflow execution failure" WARN, with its stack trace, that it writes for
 * every update a handler or validator refuses (a declined pay-now, a resume of an active
 * subscription, an unknown period): the workflow did not fail, and each refusal is already logged
 * as one line by {@link ObservabilityInterceptor}. Only lines written inside an update (the SDK
 * puts {@code UpdateId} in the logging context there) are dropped; a workflow that really fails
 * still logs.
 */
public final class UpdateRefusalLogging extends TurboFilter {
  static final String SDK_LOGGER = "io.temporal.internal.sync.WorkflowExecutionHandler";
  static final String UPDATE_ID = "UpdateId";

  private UpdateRefusalLogging() {}

  /** Installs the filter on the logging context Dropwizard configured (call from run()). */
  public static void install() {
    TurboFilters.installOnce(new UpdateRefusalLogging(), "update-refusal-logging");
  }

  @Override
  public FilterReply decide(
      Marker marker,
      ch.qos.logback.classic.Logger logger,
      Level level,
      String format,
      Object[] params,
      Throwable t) {
    return SDK_LOGGER.equals(logger.getName()) && MDC.get(UPDATE_ID) != null
        ? FilterReply.DENY
        : FilterReply.NEUTRAL;
  }
}
