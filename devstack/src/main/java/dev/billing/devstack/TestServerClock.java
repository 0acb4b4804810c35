package dev.billing.devstack;

import com.google.protobuf.Empty;
import io.temporal.api.testservice.v1.LockTimeSkippingRequest;
import io.temporal.api.testservice.v1.SleepRequest;
import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.internal.common.ProtobufTimeUtils;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The clock of a Temporal test server, through its test service: what workflows see as now, and
 * jumps forward. Usable from any process on the server's machine, not only the one running it.
 */
public final class TestServerClock implements InstantSource, AutoCloseable {

  /** A long jump over many billing cycles and reconciliation runs, on a loaded machine. */
  public static final Duration DEFAULT_JUMP_DEADLINE = Duration.ofMinutes(5);

  /** Right after a long jump the server is still busy with the work the jump released. */
  private static final Duration READ_DEADLINE = Duration.ofMinutes(1);

  private final TestServiceStubs testService;
  private final Duration jumpDeadline;

  public TestServerClock(String target) {
    this(target, DEFAULT_JUMP_DEADLINE);
  }

  /**
   * @param jumpDeadline how long one {@link #advance} may wait for the work its timers release
   */
  public TestServerClock(String target, Duration jumpDeadline) {
    this.jumpDeadline = jumpDeadline;
    // The SDK cuts every call's own deadline to the stubs' RPC timeout (10 s by default), which a
    // jump of the clock outlasts on a loaded machine: the timeout is the longest deadline here.
    // Keep-alive pings (every 30 s) during a call that long make the server answer GOAWAY
    // (too_many_pings: it allows one per 5 min), which kills the call; the server is local, there
    // is no connection for keep-alive to watch over.
    this.testService =
        TestServiceStubs.newServiceStubs(
            TestServiceStubsOptions.newBuilder()
                .setTarget(target)
                .setRpcTimeout(
                    jumpDeadline.compareTo(READ_DEADLINE) > 0 ? jumpDeadline : READ_DEADLINE)
                .setEnableKeepAlive(false)
                .validateAndBuildWithDefaults());
  }

  @Override
  public Instant instant() {
    var time =
        testService
            .blockingStub()
            .withDeadlineAfter(READ_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
            .getCurrentTime(Empty.getDefaultInstance())
            .getTime();
    return Instant.ofEpochSecond(time.getSeconds(), time.getNanos());
  }

  /**
   * Jumps the clock forward, firing every timer due on the way. Returns once the clock got there.
   */
  public Instant advance(Duration duration) {
    // Every timer on the way fires and its work runs (in real time) before the clock moves on.
    testService
        .blockingStub()
        .withDeadlineAfter(jumpDeadline.toMillis(), TimeUnit.MILLISECONDS)
        .unlockTimeSkippingWithSleep(
            SleepRequest.newBuilder()
                .setDuration(ProtobufTimeUtils.toProtoDuration(duration))
                .build());
    return instant();
  }

  /**
   * Runs {@code action} while the clock cannot jump: holds a time-skipping lock, as the server does
   * for a task in flight. Real time goes on; a jump under way waits until {@code action} returns.
   */
  public <T> T holding(Callable<T> action) throws Exception {
    testService
        .blockingStub()
        .withDeadlineAfter(READ_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .lockTimeSkipping(LockTimeSkippingRequest.getDefaultInstance());
    try {
      return action.call();
    } finally {
      testService
          .blockingStub()
          .withDeadlineAfter(READ_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());
    }
  }

  @Override
  public void close() {
    testService.shutdown();
  }
}
