package dev.billing.runtime;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import org.slf4j.LoggerFactory;

/**
 * Adds a logging filter once to the context Dropwizard configured. Dropwizard resets the context
 * (and so drops every turbo filter) when it configures logging, so call this from {@code run()} or
 * after the application started.
 */
public final class TurboFilters {
  private TurboFilters() {}

  public static void installOnce(TurboFilter filter, String name) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
        && context.getTurboFilterList().stream().noneMatch(filter.getClass()::isInstance)) {
      filter.setName(name);
      filter.start();
      context.addTurboFilter(filter);
    }
  }
}
