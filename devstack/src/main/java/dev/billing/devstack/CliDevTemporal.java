package dev.billing.devstack;

import dev.billing.runtime.SearchAttributeSetup;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TemporalDevServer;
import io.temporal.testing.TemporalDevServerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Callable;

/**
 * The real Temporal dev server ({@code temporal server start-dev}, in memory) with the Temporal UI,
 * started through the SDK's {@link TemporalDevServer}: from a {@code temporal} CLI on the PATH, or
 * downloaded by the SDK when asked for explicitly (needs the internet). Real time only: the dev
 * stack's test clock is not available, but Schedules, visibility queries and the UI are.
 */
final class CliDevTemporal implements DevTemporal {
  private final TemporalDevServer server;
  private final int uiPort;

  /**
   * @param cli the {@code temporal} executable; null to let the SDK download it
   */
  CliDevTemporal(Path cli, int port, int uiPort) {
    TemporalDevServerOptions.Builder options =
        TemporalDevServerOptions.newBuilder()
            .setPort(port)
            .setUiEnabled(true)
            .setUiPort(uiPort)
            .setLogLevel("warn")
            .setStartupTimeout(Duration.ofMinutes(2));
    if (cli != null) {
      options.setExistingPath(cli.toString()).setDownloadEnabled(false);
    } else {
      options.setDownloadEnabled(true);
    }
    this.server = TemporalDevServer.start(DevStack.NAMESPACE, options.build());
    this.uiPort = uiPort;
  }

  @Override
  public String target() {
    return server.getTarget();
  }

  @Override
  public InstantSource clock() {
    return InstantSource.system();
  }

  @Override
  public boolean hasTestClock() {
    return false;
  }

  @Override
  public Instant advance(Duration duration) {
    throw new UnsupportedOperationException("the real Temporal dev server runs in real time");
  }

  /** The wall clock never jumps. */
  @Override
  public <T> T holdingClock(Callable<T> action) throws Exception {
    return action.call();
  }

  @Override
  public String uiUrl() {
    return "http://localhost:" + uiPort;
  }

  @Override
  public void registerSearchAttributes(String namespace) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target()).build());
    try {
      SearchAttributeSetup.register(stubs, namespace);
    } finally {
      stubs.shutdown();
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
