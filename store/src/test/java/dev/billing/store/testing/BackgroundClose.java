package dev.billing.store.testing;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Closes a test fixture on a daemon thread, so the next test need not wait for it: closing a
 * Temporal test environment waits for its workers, and the SDK checks every 250 ms whether they
 * stopped (about half a second a fixture, idle). For fixtures that share nothing with the next one
 * (their own in-process servers, DynamoDB Local, fakes); the JVM's exit ends a close still under
 * way. A test whose subject is the shutdown waits for it itself.
 */
public final class BackgroundClose {
  private static final ExecutorService CLOSER =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "test-fixture-close");
            thread.setDaemon(true);
            return thread;
          });

  private BackgroundClose() {}

  public static void close(AutoCloseable fixture) {
    CLOSER.execute(
        () -> {
          try {
            fixture.close();
          } catch (Exception e) {
            System.err.println("test fixture: error while closing in the background: " + e);
          }
        });
  }
}
