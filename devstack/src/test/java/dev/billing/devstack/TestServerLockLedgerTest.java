package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Empty;
import io.temporal.api.testservice.v1.LockTimeSkippingRequest;
import io.temporal.api.testservice.v1.SleepRequest;
import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.internal.common.ProtobufTimeUtils;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import io.temporal.testserver.TestServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestServerLockLedgerTest {
  private static final int PAIRS = 2_000;

  @Test
  void theShippedLedgerGrowsWithEveryUnlock() throws Exception {
    try (Server server = new Server(false)) {
      server.lockAndUnlock(PAIRS);
      // The defect: an external lock (taken without a handle) and every unlock leave entries that
      // nothing removes: two per pair, besides the server's own start-up locks.
      assertThat((List<?>) TestServerLockLedger.ledger(server.server))
          .hasSizeGreaterThanOrEqualTo(2 * PAIRS);
    }
  }

  @Test
  void theReplacedLedgerKeepsNothingAndTheClockStillWorks() throws Exception {
    try (Server server = new Server(true)) {
      assertThat(TestServerLockLedger.ledger(server.server))
          .isInstanceOf(TestServerLockLedger.EmptyLedger.class);
      server.lockAndUnlock(PAIRS);
      assertThat((List<?>) TestServerLockLedger.ledger(server.server)).isEmpty();

      // Time skipping still works: a sleep moves the server's clock by the hour.
      long before = server.nowMillis();
      server
          .stubs
          .blockingStub()
          .unlockTimeSkippingWithSleep(
              SleepRequest.newBuilder()
                  .setDuration(ProtobufTimeUtils.toProtoDuration(Duration.ofHours(1)))
                  .build());
      assertThat(server.nowMillis() - before)
          .isGreaterThanOrEqualTo(Duration.ofHours(1).toMillis());
    }
  }

  /** A port-bound test server, created with time skipping locked as the dev stack creates it. */
  private static final class Server implements AutoCloseable {
    final TestServer.PortBoundTestServer server;
    final TestServiceStubs stubs;

    Server(boolean replaceLedger) throws Exception {
      int port = EndToEnd.freePort();
      server = TestServer.createPortBoundServer(port, true);
      if (replaceLedger) {
        assertThat(TestServerLockLedger.install(server)).isTrue();
      }
      stubs =
          TestServiceStubs.newServiceStubs(
              TestServiceStubsOptions.newBuilder()
                  .setTarget("localhost:" + port)
                  .validateAndBuildWithDefaults());
    }

    void lockAndUnlock(int pairs) {
      for (int i = 0; i < pairs; i++) {
        stubs.blockingStub().lockTimeSkipping(LockTimeSkippingRequest.getDefaultInstance());
        stubs.blockingStub().unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());
      }
    }

    long nowMillis() {
      return ProtobufTimeUtils.toJavaInstant(
              stubs.blockingStub().getCurrentTime(Empty.getDefaultInstance()).getTime())
          .toEpochMilli();
    }

    @Override
    public void close() {
      stubs.shutdown();
      server.close();
    }
  }
}
