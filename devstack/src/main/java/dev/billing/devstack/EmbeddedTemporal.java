package dev.billing.devstack;

import com.google.protobuf.Empty;
import io.temporal.api.testservice.v1.SleepRequest;
import io.temporal.internal.common.ProtobufTimeUtils;
import dev.billing.runtime.SearchAttributeSetup;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.serviceclient.TestServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * Temporal's Java test server as a standalone gRPC server. Time runs in real time until the test
 * clock is advanced: then the server jumps through due timers in order, pausing while workflow and
 * activity tasks are outstanding, so months of billing happen in seconds and in the right order.
 * Everything lives in memory.
 */
public final class EmbeddedTemporal implements DevTemporal {

  /** A long jump over many billing cycles and reconciliation runs, on a loaded machine. */
  static final Duration ADVANCE_DEADLINE = Duration.ofMinutes(5);
  /** Right after a long jump the server is still busy with the work the jump released. */
  private static final Duration CLOCK_DEADLINE = Duration.ofMinutes(1);

  private final TestServer.PortBoundTestServer server;
  private final TestServiceStubs testService;
  private final String target;

  public EmbeddedTemporal(int port) {
    // true = time skipping locked: real time until someone advances the clock.
    this.server = TestServer.createPortBoundServer(port, true);
    TestServerLockLedger.install(server);
    this.target = "localhost:" + port;
    // The SDK cuts every call's own deadline to the stubs' RPC timeout (10 s by default), which a
    // jump of the clock outlasts on a loaded machine: the timeout is the longest deadline here.
    this.testService = TestServiceStubs.newServiceStubs(TestServiceStubsOptions.newBuilder()
        .setTarget(target).setRpcTimeout(ADVANCE_DEADLINE).validateAndBuildWithDefaults());
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

  /** Registers the workflow's search attributes in the namespace, as a real cluster's setup would. */
  @Override
  public void registerSearchAttributes(String namespace) {
    WorkflowServiceStubs stubs = WorkflowServiceStubs.newServiceStubs(
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
    return () -> {
      var time = testService.blockingStub()
          .withDeadlineAfter(CLOCK_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .getCurrentTime(Empty.getDefaultInstance()).getTime();
      return Instant.ofEpochSecond(time.getSeconds(), time.getNanos());
    };
  }

  /** Jumps the clock forward, firing every timer due on the way. Returns once the clock got there. */
  @Override
  public Instant advance(Duration duration) {
    // Every timer on the way fires and its work runs (in real time) before the clock moves on.
    testService.blockingStub().withDeadlineAfter(ADVANCE_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .unlockTimeSkippingWithSleep(SleepRequest.newBuilder()
            .setDuration(ProtobufTimeUtils.toProtoDuration(duration)).build());
    return clock().instant();
  }

  @Override
  public void close() {
    testService.shutdown();
    server.close();
  }
}
