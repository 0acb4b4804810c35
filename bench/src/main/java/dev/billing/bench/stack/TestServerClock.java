package dev.billing.bench.stack;

import com.google.protobuf.Empty;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * The time of a Temporal test server seen from another process, as the dev stack's sandbox gateway
 * and API see it: one GetCurrentTime call per reading.
 */
public final class TestServerClock implements InstantSource, AutoCloseable {
  private final TestServiceStubs stubs;

  public TestServerClock(String target) {
    this.stubs = TestServiceStubs.newServiceStubs(
        TestServiceStubsOptions.newBuilder().setTarget(target).validateAndBuildWithDefaults());
  }

  @Override
  public Instant instant() {
    var time = stubs.blockingStub().getCurrentTime(Empty.getDefaultInstance()).getTime();
    return Instant.ofEpochSecond(time.getSeconds(), time.getNanos());
  }

  @Override
  public void close() throws InterruptedException {
    stubs.shutdown();
    stubs.awaitTermination(5, TimeUnit.SECONDS);
  }
}
