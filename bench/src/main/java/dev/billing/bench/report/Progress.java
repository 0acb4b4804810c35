package dev.billing.bench.report;

import java.time.LocalTime;

/** The harness's progress lines on standard output, and elapsed wall time for the figures. */
public final class Progress {
  private Progress() {}

  public static void log(String message) {
    System.out.println("[bench " + LocalTime.now().withNano(0) + "] " + message);
  }

  public static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
