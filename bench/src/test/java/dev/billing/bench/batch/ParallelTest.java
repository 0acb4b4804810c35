package dev.billing.bench.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.bench.report.ThreadCpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ParallelTest {

  /** The batch's CPU is read after its pool is gone: its threads' time must still be counted. */
  @Test
  void thePoolsCpuOutlivesItsThreads() {
    long before = ThreadCpu.snapshot().getOrDefault("bench-pool-#", 0L);

    List<Long> sums = Parallel.map(List.of(1, 2), 2, i -> busy(200_000_000L));

    assertThat(sums).hasSize(2);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("bench-pool-"));
    // Two tasks of at least 0.2 s of CPU each.
    assertThat(ThreadCpu.snapshot().getOrDefault("bench-pool-#", 0L) - before)
        .isGreaterThanOrEqualTo(400_000_000L);
  }

  /** Spins until this thread has used {@code cpuNanos} of CPU. */
  private static long busy(long cpuNanos) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + cpuNanos;
    long sum = 0;
    while (threads.getCurrentThreadCpuTime() < end) {
      sum += IntStream.range(0, 1_000).sum();
    }
    return sum;
  }
}
