package dev.billing.bench.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Runs one task per input on a fixed number of threads, as the worker's fixed slots do. */
public final class Parallel {
  private Parallel() {}

  public static <I, O> List<O> map(List<I> inputs, int threads, Function<I, O> task) {
    // Named, so the profile tells the harness's own work from the servers' threads.
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads,
        runnable -> new Thread(runnable, "bench-pool-" + n.incrementAndGet()));
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
    }
  }
}
