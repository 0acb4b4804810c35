package dev.billing.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** min / median / max of repeated measurements, with the measurements themselves. */
public record Summary(double min, double median, double max, List<Double> samples) {

  public static Summary of(List<Double> samples) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Summary(sorted.get(0), median, sorted.get(n - 1), List.copyOf(samples));
  }

  public static Summary of(double... samples) {
    List<Double> list = new ArrayList<>();
    for (double sample : samples) {
      list.add(sample);
    }
    return of(list);
  }

  /**
   * Per-trial ratios a[i] / b[i]: a ratio of medians would pair trials that did not run together.
   */
  public static Summary ratio(Summary a, Summary b) {
    if (a.samples.size() != b.samples.size()) {
      throw new IllegalArgumentException("ratio needs paired trials");
    }
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < a.samples.size(); i++) {
      ratios.add(a.samples.get(i) / b.samples.get(i));
    }
    return of(ratios);
  }

  /** The nearest-rank {@code p}th percentile of the values (0 < p <= 100). */
  public static double percentile(List<Double> values, double p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  public Summary times(double factor) {
    return of(samples.stream().map(s -> s * factor).toList());
  }
}
