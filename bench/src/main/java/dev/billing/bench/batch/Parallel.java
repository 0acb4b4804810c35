package dev.billing.bench.batch;

import dev.billing.bench.report.ThreadCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** Runs one task per input on a fixed number of threads, as the worker's fixed slots do. */
public final class Parallel {
  private Parallel() {}

  public static <I, O> List<O> map(List<I> inputs, int threads, Function<I, O> task) {
    // Named, so the profile tells the harness's own work from the servers' threads.
    List<Thread> started = new CopyOnWriteArrayList<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread =
                  new Thread(
                      () -> {
                        try {
                          runnable.run();
                        } finally {
                          // The pool is gone before the batch's CPU is read: keep what its threads
                          // used.
                          ThreadCpu.retire();
                        }
                      },
                      "bench-pool-" + (started.size() + 1));
              started.add(thread);
              return thread;
            });
    try {
      List<Future<O>> futures = new ArrayList<>(inputs.size());
      for (I input : inputs) {
        futures.add(pool.submit(() -> task.apply(input)));
      }
      List<O> results = new ArrayList<>(inputs.size());
      for (Future<O> future : futures) {
        results.add(future.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a task failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
      joinAll(started);
    }
  }

  /** Each thread retires its CPU as it ends: a snapshot after this call sees all of it. */
  private static void joinAll(List<Thread> threads) {
    try {
      for (Thread thread : threads) {
        thread.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
