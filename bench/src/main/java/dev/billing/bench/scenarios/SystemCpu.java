package dev.billing.bench.scenarios;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU use between two readings of /proc/stat: on a shared machine it tells how
 * much of the CPU went to work other than the benchmark's.
 */
public record SystemCpu(long busy, long total) {

  public static SystemCpu read() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < fields.length; i++) {
        total += Long.parseLong(fields[i]);
      }
      long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
      return new SystemCpu(total - idle, total);
    } catch (Exception e) {
      return new SystemCpu(0, 0);
    }
  }

  /** Cores busy on average between {@code before} and this reading. */
  public double busyCoresSince(SystemCpu before) {
    long total = this.total - before.total;
    return total <= 0
        ? Double.NaN
        : (double) (busy - before.busy) / total * Runtime.getRuntime().availableProcessors();
  }
}
