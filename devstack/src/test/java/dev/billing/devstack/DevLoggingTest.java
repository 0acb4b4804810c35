package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DevLoggingTest {

  @AfterEach
  void restoreTestLogging() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    configurator.doConfigure(getClass().getResource("/logback-test.xml"));
  }

  @Test
  void verbose_is_debug_and_the_variable_sets_any_level() {
    assertThat(DevLogging.requestedLevel(List.of(), null)).isNull();
    assertThat(DevLogging.requestedLevel(List.of(), " ")).isNull();
    assertThat(DevLogging.requestedLevel(List.of("--verbose"), null)).isEqualTo(Level.DEBUG);
    assertThat(DevLogging.requestedLevel(List.of("--verbose"), "ERROR")).isEqualTo(Level.DEBUG);
    assertThat(DevLogging.requestedLevel(List.of(), "info")).isEqualTo(Level.INFO);
  }

  @Test
  void refuses_an_unknown_argument_or_level() {
    assertThatThrownBy(() -> DevLogging.requestedLevel(List.of("--verbos"), null))
        .hasMessageContaining("unknown argument \"--verbos\"");
    assertThatThrownBy(() -> DevLogging.requestedLevel(List.of(), "LOUD"))
        .hasMessageContaining("BILLING_LOG_LEVEL must be one of");
  }

  @Test
  void quiet_until_started_then_the_billing_code_at_info_and_the_libraries_at_warn() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    DevLogging logging = DevLogging.configure(null);
    assertThat(context.getLogger("dev.billing.worker.Anything").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(context.getLogger("dev.billing.api.auth.ApiAuthentication").getEffectiveLevel())
        .isEqualTo(Level.ERROR);
    assertThat(context.getLogger("software.amazon.awssdk.request").getEffectiveLevel())
        .isEqualTo(Level.WARN);

    logging.started();
    assertThat(context.getLogger("dev.billing.worker.Anything").getEffectiveLevel())
        .isEqualTo(Level.INFO);
    assertThat(context.getLogger("dev.billing.api.auth.ApiAuthentication").getEffectiveLevel())
        .isEqualTo(Level.INFO);
    assertThat(context.getLogger("org.eclipse.jetty.server.Server").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(
            context.getLogger("io.temporal.internal.worker.HeartbeatManager").getEffectiveLevel())
        .isEqualTo(Level.ERROR);
  }

  @Test
  void a_requested_level_is_the_level_of_everything() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    DevLogging.configure(Level.DEBUG).started();
    assertThat(context.getLogger("org.eclipse.jetty.http.HttpParser").getEffectiveLevel())
        .isEqualTo(Level.DEBUG);
    assertThat(context.getLogger("dev.billing.worker.Anything").getEffectiveLevel())
        .isEqualTo(Level.DEBUG);
  }
}
