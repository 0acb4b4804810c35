package dev.billing.workflows;

import io.temporal.testing.TestWorkflowEnvironment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Closes test environments on daemon threads, so the next test need not wait: the SDK's worker
 * shutdown checks every 250 ms whether its executors have stopped, which added about half a second
 * to every test of this module, idle. An environment shares nothing with the next one (its own
 * in-process server, workers and fakes); the JVM's exit ends a close still under way.
 */
public final class BackgroundClose {
  private static final ExecutorService CLOSER =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "test-environment-close");
            thread.setDaemon(true);
            return thread;
          });

  private BackgroundClose() {}

  public static void close(TestWorkflowEnvironment env) {
    CLOSER.execute(env::close);
  }
}
