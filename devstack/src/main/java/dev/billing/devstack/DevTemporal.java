package dev.billing.devstack;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Callable;

/**
 * The Temporal server of the dev stack: Temporal's Java test server (the default, with the test
 * clock), or the real Temporal dev server of the {@code temporal} CLI (with the Temporal UI,
 * Schedules and visibility queries, but real time only).
 */
interface DevTemporal extends AutoCloseable {

  String target();

  /** What workflows see as now. */
  InstantSource clock();

  /** False for the real dev server: its clock is the wall clock. */
  boolean hasTestClock();

  /** Jumps the test clock forward; only when {@link #hasTestClock()}. */
  Instant advance(Duration duration);

  /** Runs {@code action} while the clock cannot jump (a real dev server's clock never does). */
  <T> T holdingClock(Callable<T> action) throws Exception;

  /** The Temporal UI's address; null when there is none. */
  String uiUrl();

  void registerSearchAttributes(String namespace);

  @Override
  void close();
}
