package dev.billing.devstack;

import dev.billing.runtime.SearchAttributeSetup;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Callable;

/**
 * Temporal's Java test server as a standalone gRPC server. Time runs in real time until the test
 * clock is advanced: then the server jumps through due timers in order, pausing while workflow and
 * activity tasks are outstanding, so months of billing happen in seconds and in the right order.
 * Everything lives in memory.
 */
public final class EmbeddedTemporal implements DevTemporal {

  private final TestServer.PortBoundTestServer server;
  private final TestServerClock clock;
  private final String target;

  public EmbeddedTemporal(int port) {
    this(port, TestServerClock.DEFAULT_JUMP_DEADLINE);
  }

  /**
   * @param jumpDeadline how long one {@link #advance} may take (see {@link TestServerClock})
   */
  public EmbeddedTemporal(int port, Duration jumpDeadline) {
    // true = time skipping locked: real time until someone advances the clock.
    this.server = TestServer.createPortBoundServer(port, true);
    TestServerLockLedger.install(server);
    this.target = "localhost:" + port;
    this.clock = new TestServerClock(target, jumpDeadline);
  }

  @Override
  public String target() {
    return target;
  }

  @Override
  public boolean hasTestClock() {
    return true;
  }

  /** The test server has no UI. */
  @Override
  public String uiUrl() {
    return null;
  }

  /**
   * Registers the workflow's search attributes in the namespace, as a real cluster's setup would.
   */
  @Override
  public void registerSearchAttributes(String namespace) {
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    try {
      SearchAttributeSetup.register(stubs, namespace);
    } finally {
      stubs.shutdown();
    }
  }

  /** The server's clock: what workflows see as now. */
  @Override
  public InstantSource clock() {
    return clock;
  }

  /**
   * Jumps the clock forward, firing every timer due on the way. Returns once the clock got there.
   */
  @Override
  public Instant advance(Duration duration) {
    return clock.advance(duration);
  }

  @Override
  public <T> T holdingClock(Callable<T> action) throws Exception {
    return clock.holding(action);
  }

  @Override
  public void close() {
    clock.close();
    server.close();
  }
}
