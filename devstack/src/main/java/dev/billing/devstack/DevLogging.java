package dev.billing.devstack;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import dev.billing.runtime.DeliberateActivityFailureLogging;
import java.util.List;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * The logging of {@code ./billing dev}, set up before any component starts so that every one of
 * them (Temporal's test server, DynamoDB Local, the worker, the API) writes one format to one
 * console. The API's Dropwizard leaves it alone ({@code logging: type: external} in dev-api.yml).
 *
 * <p>By default the start-up is quiet: only warnings and errors until the banner, then the billing
 * code's own INFO lines as well; the libraries stay at WARN. {@code --verbose} or {@value
 * #LEVEL_VARIABLE} (e.g. DEBUG) set one level for everything instead.
 */
final class DevLogging {
  static final String LEVEL_VARIABLE = "BILLING_LOG_LEVEL";
  static final String VERBOSE_FLAG = "--verbose";

  /** Time, level, the class, the subscription when there is one, the message. */
  static final String PATTERN =
      "%d{HH:mm:ss.SSS} %-5level %logger{0}:%replace("
          + " [subscriptionId=%X{subscriptionId}]){' \\[subscriptionId=\\]', ''} %msg%n";

  /** Expected at start-up, and the banner says it: the dev key's warning. */
  private static final List<String> QUIET_UNTIL_STARTED =
      List.of("dev.billing.api.auth.ApiAuthentication");

  /** The test server has no worker heartbeats, which the SDK reports once and nobody can act on. */
  private static final List<String> QUIET = List.of("io.temporal.internal.worker.HeartbeatManager");

  private final LoggerContext context;
  private final Level level;

  private DevLogging(LoggerContext context, Level level) {
    this.context = context;
    this.level = level;
  }

  /**
   * The level asked for: {@code --verbose} is DEBUG, else {@value #LEVEL_VARIABLE}; null when
   * neither (the quiet default).
   *
   * @throws IllegalArgumentException for another argument or a value that is no level
   */
  static Level requestedLevel(List<String> args, String variable) {
    for (String arg : args) {
      if (!arg.equals(VERBOSE_FLAG)) {
        throw new IllegalArgumentException(
            "unknown argument \"" + arg + "\" (usage: ./billing dev [" + VERBOSE_FLAG + "])");
      }
    }
    if (args.contains(VERBOSE_FLAG)) {
      return Level.DEBUG;
    }
    if (variable == null || variable.isBlank()) {
      return null;
    }
    Level parsed = Level.toLevel(variable.strip().toUpperCase(Locale.ROOT), null);
    if (parsed == null) {
      throw new IllegalArgumentException(
          LEVEL_VARIABLE
              + " must be one of TRACE, DEBUG, INFO, WARN,"
              + " ERROR, OFF; got \""
              + variable
              + "\"");
    }
    return parsed;
  }

  /** Replaces whatever Logback configured by itself; {@code level} null for the quiet default. */
  static DevLogging configure(Level level) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(console);
    root.setLevel(level == null ? Level.WARN : level);
    if (level == null) {
      QUIET.forEach(name -> context.getLogger(name).setLevel(Level.ERROR));
      QUIET_UNTIL_STARTED.forEach(name -> context.getLogger(name).setLevel(Level.ERROR));
      // A declined card is an outcome, not a stack trace: the activity says it in one line.
      DeliberateActivityFailureLogging.install();
    }
    return new DevLogging(context, level);
  }

  /** After the banner: the billing code's INFO lines (a charge, a refused update, ...) show. */
  void started() {
    if (level == null) {
      QUIET_UNTIL_STARTED.forEach(name -> context.getLogger(name).setLevel(null));
      context.getLogger("dev.billing").setLevel(Level.INFO);
    }
  }
}
