package dev.billing.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.testservice.v1.LockTimeSkippingRequest;
import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EmbeddedTemporalTest {

  /**
   * A jump waits for the work its timers release, in real time: on a loaded machine that outlasts
   * the SDK's usual 10 s call deadline. Here the work is a time-skipping lock held for 12 s.
   */
  @Test
  void aJumpThatWaitsLongerThanTheUsualCallDeadlineStillArrives() throws Exception {
    int port = EndToEnd.freePort();
    try (EmbeddedTemporal temporal = new EmbeddedTemporal(port)) {
      TestServiceStubs busy =
          TestServiceStubs.newServiceStubs(
              TestServiceStubsOptions.newBuilder()
                  .setTarget(temporal.target())
                  .validateAndBuildWithDefaults());
      try {
        busy.blockingStub().lockTimeSkipping(LockTimeSkippingRequest.getDefaultInstance());
        Instant before = temporal.clock().instant();

        CompletableFuture<Instant> jump =
            CompletableFuture.supplyAsync(() -> temporal.advance(Duration.ofDays(1)));
        Thread.sleep(12_000);
        assertThat(jump).as("the jump waits while the work runs").isNotDone();
        busy.blockingStub().unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());

        assertThat(jump.get(30, TimeUnit.SECONDS))
            .isAfterOrEqualTo(before.plus(Duration.ofDays(1)));
      } finally {
        busy.shutdown();
      }
    }
  }
}
