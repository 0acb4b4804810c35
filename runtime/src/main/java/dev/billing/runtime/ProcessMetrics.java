package dev.billing.runtime;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The process's metrics in Prometheus's text format at {@code GET <admin port>/prometheus}: the
 * Temporal SDK's own (through its Micrometer bridge: {@code temporal_workflow_task_*}, {@code
 * temporal_activity_*}, {@code temporal_request_*}, poller and cache gauges), the JVM's, and the
 * business counters the worker adds. Every series carries {@code process="worker"|"api"}.
 * (Dropwizard's own JSON metrics stay at {@code /metrics}.)
 */
public final class ProcessMetrics implements Managed {
  public static final String PATH = "/prometheus";

  /** How often the SDK's tally scope reports into Micrometer. */
  private static final com.uber.m3.util.Duration REPORT_EVERY =
      com.uber.m3.util.Duration.ofSeconds(10);

  private final PrometheusMeterRegistry registry;
  private final Scope temporalScope;

  public ProcessMetrics(String process) {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags("process", process);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    temporalScope =
        new RootScopeBuilder()
            .reporter(new MicrometerClientStatsReporter(registry))
            .reportEvery(REPORT_EVERY);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** For WorkflowServiceStubsOptions.setMetricsScope: the client's and its workers' metrics. */
  public Scope temporalScope() {
    return temporalScope;
  }

  /** What a scrape returns now. */
  public String scrape() {
    return registry.scrape();
  }

  /** Serves the scrape on the admin port and closes the scope with the process. */
  public void register(Environment environment) {
    environment
        .admin()
        .addServlet(
            "prometheus",
            new HttpServlet() {
              @Override
              protected void doGet(HttpServletRequest request, HttpServletResponse response)
                  throws IOException {
                response.setContentType("text/plain; version=0.0.4; charset=utf-8");
                response.setHeader("Cache-Control", "must-revalidate,no-cache,no-store");
                response.getOutputStream().write(scrape().getBytes(StandardCharsets.UTF_8));
              }
            })
        .addMapping(PATH);
    environment.lifecycle().manage(this);
  }

  @Override
  public void stop() throws Exception {
    temporalScope.close();
    registry.close();
  }
}
