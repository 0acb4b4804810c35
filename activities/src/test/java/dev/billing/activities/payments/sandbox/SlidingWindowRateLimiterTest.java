package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SlidingWindowRateLimiterTest {
  private static final long MILLI = 1_000_000L;
  private final AtomicLong nanos = new AtomicLong(0);

  @Test
  void admitsTheLimitInAnyOneSecondWindowAndNoMore() {
    SlidingWindowRateLimiter limiter = new SlidingWindowRateLimiter(3, nanos::get);

    assertThat(limiter.tryAcquire()).isTrue(); // t = 0
    nanos.set(400 * MILLI);
    assertThat(limiter.tryAcquire()).isTrue(); // t = 400 ms
    assertThat(limiter.tryAcquire()).isTrue(); // t = 400 ms
    assertThat(limiter.tryAcquire()).isFalse();
    nanos.set(999 * MILLI);
    assertThat(limiter.tryAcquire()).isFalse(); // the first is still inside the window
    nanos.set(1000 * MILLI);
    assertThat(limiter.tryAcquire()).isTrue(); // it left: one slot
    assertThat(limiter.tryAcquire()).isFalse();
    nanos.set(1400 * MILLI);
    assertThat(limiter.tryAcquire()).isTrue(); // both of 400 ms left
    assertThat(limiter.tryAcquire()).isTrue();
    assertThat(limiter.tryAcquire()).isFalse();
  }

  @Test
  void refusalsDoNotCount() {
    SlidingWindowRateLimiter limiter = new SlidingWindowRateLimiter(1, nanos::get);
    assertThat(limiter.tryAcquire()).isTrue();
    for (int i = 0; i < 10; i++) {
      nanos.addAndGet(90 * MILLI);
      assertThat(limiter.tryAcquire()).isFalse();
    }
    nanos.set(1000 * MILLI);

    assertThat(limiter.tryAcquire()).isTrue();
  }

  @Test
  void survivesTheMonotonicClockOverflowing() {
    nanos.set(Long.MAX_VALUE - 10 * MILLI);
    SlidingWindowRateLimiter limiter = new SlidingWindowRateLimiter(1, nanos::get);
    assertThat(limiter.tryAcquire()).isTrue();
    nanos.addAndGet(500 * MILLI); // wraps to negative
    assertThat(limiter.tryAcquire()).isFalse();
    nanos.addAndGet(500 * MILLI);

    assertThat(limiter.tryAcquire()).isTrue();
  }

  @Test
  void unlimitedAdmitsEverything() {
    SlidingWindowRateLimiter limiter =
        new SlidingWindowRateLimiter(SandboxSettings.UNLIMITED, nanos::get);
    for (int i = 0; i < 10_000; i++) {
      assertThat(limiter.tryAcquire()).isTrue();
    }
    assertThatThrownBy(() -> new SlidingWindowRateLimiter(-1, nanos::get))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
