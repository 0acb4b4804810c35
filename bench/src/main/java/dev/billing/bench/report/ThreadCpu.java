package dev.billing.bench.report;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CPU time of this JVM's threads grouped by name (digits dropped: "grpc-default-executor-12" and
 * "-3" are one group): a cheap profile of where a process spends its time, taken before and after a
 * measurement.
 */
public final class ThreadCpu {
  /**
   * CPU of threads that ended after {@link #retire()}: a dead thread's time is gone from the
   * MXBean.
   */
  private static final Map<String, Long> RETIRED = new ConcurrentHashMap<>();

  private ThreadCpu() {}

  /** Keeps the calling thread's CPU time in every later snapshot; called as a pool thread ends. */
  public static void retire() {
    long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    if (cpu > 0) {
      RETIRED.merge(group(Thread.currentThread().getName()), cpu, Long::sum);
    }
  }

  /** Nanoseconds of CPU by thread group, for threads alive now and those retired. */
  public static Map<String, Long> snapshot() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Long> byGroup = new HashMap<>(RETIRED);
    if (!threads.isThreadCpuTimeSupported()) {
      return byGroup;
    }
    for (long id : threads.getAllThreadIds()) {
      long cpu = threads.getThreadCpuTime(id);
      ThreadInfo info = threads.getThreadInfo(id);
      if (cpu > 0 && info != null) {
        byGroup.merge(group(info.getThreadName()), cpu, Long::sum);
      }
    }
    return byGroup;
  }

  static String group(String threadName) {
    if (threadName.startsWith("workflow-method-")) {
      return "workflow-method-* (workflow threads)";
    }
    String name = threadName.replaceAll("@[0-9a-f]+.*$", "");
    return name.replaceAll("[0-9]+", "#");
  }

  /**
   * after - before per group, largest first, at most {@code top} groups (the rest summed as
   * "other").
   */
  public static Map<String, Long> delta(
      Map<String, Long> before, Map<String, Long> after, int top) {
    Map<String, Long> delta = new HashMap<>();
    after.forEach(
        (group, cpu) -> {
          long d = cpu - before.getOrDefault(group, 0L);
          if (d > 0) {
            delta.put(group, d);
          }
        });
    Map<String, Long> sorted = new LinkedHashMap<>();
    long[] other = {0};
    delta.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEachOrdered(
            e -> {
              if (sorted.size() < top) {
                sorted.put(e.getKey(), e.getValue());
              } else {
                other[0] += e.getValue();
              }
            });
    if (other[0] > 0) {
      sorted.put("other", other[0]);
    }
    return sorted;
  }

  /** CPU time of this whole process so far, in nanoseconds. */
  public static long processCpu() {
    return ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
        .getProcessCpuTime();
  }
}
