package dev.billing.api.auth;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import dev.billing.runtime.TurboFilters;
import org.slf4j.Marker;

/**
 * Keeps credentials out of the logs even when someone turns logging up: Jetty's DEBUG and TRACE
 * output prints every request header as parsed, {@code Authorization} included, so it is dropped
 * whatever level its loggers are set to (in the YAML or through the admin port's log-level task).
 * Nothing else in the API logs a header; API keys are logged by id only.
 */
public final class CredentialSafeLogging extends TurboFilter {
  private static final String JETTY = "org.eclipse.jetty";

  private CredentialSafeLogging() {}

  /** Installs the filter on the logging context Dropwizard configured (call from run()). */
  public static void install() {
    TurboFilters.installOnce(new CredentialSafeLogging(), "credential-safe-logging");
  }

  @Override
  public FilterReply decide(
      Marker marker,
      ch.qos.logback.classic.Logger logger,
      Level level,
      String format,
      Object[] params,
      Throwable t) {
    return level != null && level.toInt() < Level.INFO_INT && logger.getName().startsWith(JETTY)
        ? FilterReply.DENY
        : FilterReply.NEUTRAL;
  }
}
