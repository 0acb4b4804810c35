package dev.billing.bench.scenarios;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Bounded polling: the benchmark waits for progress it can observe, never for a fixed time. */
public final class Waits {
  private Waits() {}

  public static void until(
      String what, Duration timeout, Duration every, Callable<Boolean> condition) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(every.toMillis());
    }
  }
}
