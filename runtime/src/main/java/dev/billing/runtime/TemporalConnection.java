package dev.billing.runtime;

import com.uber.m3.tally.Scope;
import io.dropwizard.lifecycle.Managed;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The process's connection to Temporal; closed when the process stops. */
public final class TemporalConnection implements Managed {

  private final TemporalSettings settings;
  private final WorkflowServiceStubs stubs;
  private final WorkflowClient client;

  public TemporalConnection(TemporalSettings settings) {
    this(settings, null);
  }

  /**
   * @param metricsScope where the SDK reports its client and worker metrics ({@link
   *     ProcessMetrics#temporalScope()}); null for none
   */
  public TemporalConnection(TemporalSettings settings, Scope metricsScope) {
    this.settings = settings;
    WorkflowServiceStubsOptions options = stubsOptions(settings);
    if (metricsScope != null) {
      options =
          WorkflowServiceStubsOptions.newBuilder(options).setMetricsScope(metricsScope).build();
    }
    // Lazy stubs: the process starts even while Temporal is briefly unreachable; the health check
    // tells.
    this.stubs = WorkflowServiceStubs.newServiceStubs(options);
    this.client =
        WorkflowClient.newInstance(
            stubs, WorkflowClientOptions.newBuilder().setNamespace(settings.namespace()).build());
  }

  static WorkflowServiceStubsOptions stubsOptions(TemporalSettings settings) {
    WorkflowServiceStubsOptions.Builder options =
        WorkflowServiceStubsOptions.newBuilder().setTarget(settings.target());
    if (settings.apiKey() != null) {
      String key = settings.apiKey();
      options.setEnableHttps(true).addApiKey(() -> key);
    }
    if (settings.tlsCertPath() != null) {
      try (InputStream cert = Files.newInputStream(Path.of(settings.tlsCertPath()));
          InputStream key = Files.newInputStream(Path.of(settings.tlsKeyPath()))) {
        options.setSslContext(SimpleSslContextBuilder.forPKCS8(cert, key).build());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the Temporal mTLS certificate or key", e);
      }
    }
    return options.build();
  }

  public TemporalSettings settings() {
    return settings;
  }

  public WorkflowServiceStubs stubs() {
    return stubs;
  }

  public WorkflowClient client() {
    return client;
  }

  @Override
  public void stop() throws InterruptedException {
    stubs.shutdown();
    stubs.awaitTermination(5, TimeUnit.SECONDS);
  }

  /** How long a health check may wait for the server. */
  static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(3);
}
