package dev.billing.worker.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run of the model test did, over all its sequences: printed at the end, quoted in the doc.
 */
final class ModelStats {
  private static final int KEPT = 20;

  private long sequences;
  private long steps;
  private long applied;
  private long refused;
  private long unexpected;
  private long setAside;
  private long refundsSetAside;
  private long restarts;
  private long faults;
  private long events;
  private long charges;

  /** Outcomes of the steps whose kind the summary names (reactivations, term switches). */
  private final Map<String, Long> tallies = new TreeMap<>();

  private final List<String> unexpectedSamples = new ArrayList<>();
  private final long startedAt = System.nanoTime();
  private String seed;

  synchronized void seed(String seed) {
    this.seed = seed;
  }

  synchronized void step() {
    steps++;
  }

  synchronized void applied() {
    applied++;
  }

  synchronized void refused() {
    refused++;
  }

  /**
   * Counts an outcome of a reactivation or a term switch by its step's first word ({@code
   * reactivate ...}, {@code term ...}), so the summary shows whether a run applied them at all.
   */
  synchronized void tally(String step, String outcome) {
    if (step.startsWith("reactivate ") || step.startsWith("term ")) {
      tallies.merge(step.substring(0, step.indexOf(' ')) + " " + outcome, 1L, Long::sum);
    }
  }

  /** An update that failed otherwise than by a refusal (the API's 500 or 202): kept, not fatal. */
  synchronized void unexpected(String line) {
    unexpected++;
    if (unexpectedSamples.size() < KEPT) {
      unexpectedSamples.add(line);
    }
  }

  /** Counts the checks that set an unknown-outcome charge, or a pending refund, aside. */
  synchronized void setAside(int charges, int refunds) {
    setAside += charges > 0 ? 1 : 0;
    refundsSetAside += refunds > 0 ? 1 : 0;
  }

  synchronized void sequence(int restarts, int faults, int events, int charges) {
    sequences++;
    this.restarts += restarts;
    this.faults += faults;
    this.events += events;
    this.charges += charges;
  }

  synchronized long unexpected() {
    return unexpected;
  }

  synchronized long chargesSetAside() {
    return setAside;
  }

  synchronized long refundsSetAside() {
    return refundsSetAside;
  }

  synchronized String summary() {
    long seconds = (System.nanoTime() - startedAt) / 1_000_000_000L;
    return "model test (seed "
        + seed
        + "): "
        + sequences
        + " sequences, "
        + steps
        + " checked steps in "
        + seconds
        + " s; updates "
        + applied
        + " applied, "
        + refused
        + " refused, "
        + unexpected
        + " failed otherwise; "
        + charges
        + " gateway charges, "
        + events
        + " events delivered, "
        + faults
        + " injected faults, "
        + restarts
        + " worker restarts; "
        + setAside
        + " checks set a charge without an answer aside, "
        + refundsSetAside
        + " a pending refund"
        + (tallies.isEmpty() ? "" : "; " + tallies)
        + (unexpectedSamples.isEmpty()
            ? ""
            : "\n  other failures (first "
                + KEPT
                + "):\n    "
                + String.join("\n    ", unexpectedSamples));
  }
}
