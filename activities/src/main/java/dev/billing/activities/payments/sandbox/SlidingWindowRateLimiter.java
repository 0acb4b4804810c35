package dev.billing.activities.payments.sandbox;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * At most {@code limit} admissions in any one-second window, as Stripe counts requests per second.
 * Measured on a monotonic clock in nanoseconds ({@link System#nanoTime} in use): the sandbox clock
 * follows Temporal's test server and jumps, which would make any rate meaningless. Refused requests
 * do not count. Thread-safe.
 */
final class SlidingWindowRateLimiter {
  static final long WINDOW_NANOS = 1_000_000_000L;

  private final int limit;
  private final LongSupplier nanoTime;
  private final ArrayDeque<Long> admitted = new ArrayDeque<>();

  /**
   * @param limit admissions per second; {@link SandboxSettings#UNLIMITED} admits everything
   */
  SlidingWindowRateLimiter(int limit, LongSupplier nanoTime) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative");
    }
    this.limit = limit;
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  int limit() {
    return limit;
  }

  /** Admits one request now, or says no when the last second already holds {@code limit}. */
  synchronized boolean tryAcquire() {
    if (limit == SandboxSettings.UNLIMITED) {
      return true;
    }
    long now = nanoTime.getAsLong();
    // Subtraction, not comparison of raw values: nanoTime may overflow.
    while (!admitted.isEmpty() && now - admitted.peekFirst() >= WINDOW_NANOS) {
      admitted.pollFirst();
    }
    if (admitted.size() >= limit) {
      return false;
    }
    admitted.addLast(now);
    return true;
  }
}
