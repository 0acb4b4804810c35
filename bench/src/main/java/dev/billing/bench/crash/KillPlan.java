package dev.billing.bench.crash;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When the crash scenario kills the worker, drawn from a seed so that a run can be repeated. Kills
 * are placed by progress, not by wall time: the k-th comes once the gateway has received a drawn
 * number of charge requests (between 3 % and 90 % of the day's), then after a drawn pause of up to
 * a second, so every kill lands while the day is being collected, however fast the machine is. One
 * kill, the middle one, instead waits for a reconciliation repair to be running one of its steps.
 *
 * @param seed printed with the run; the same seed, size and kill count give the same plan
 */
public record KillPlan(long seed, List<Kill> kills) {

  /**
   * @param afterChargeCalls the gateway's count of charge requests that triggers this kill (ignored
   *     for the repair kill)
   * @param pauseMillis how long after the trigger the kill comes
   * @param duringRepair this kill waits for a running reconciliation step instead
   */
  public record Kill(int number, long afterChargeCalls, long pauseMillis, boolean duringRepair) {}

  public KillPlan {
    kills = List.copyOf(kills);
  }

  public static KillPlan draw(long seed, int kills, int subscriptions) {
    if (kills < 1) {
      throw new IllegalArgumentException("kills must be at least 1");
    }
    SplittableRandom random = new SplittableRandom(seed);
    long low = Math.max(1, subscriptions * 3L / 100);
    long high = Math.max(low + 1, subscriptions * 90L / 100);
    List<Long> thresholds = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      thresholds.add(random.nextLong(low, high));
    }
    thresholds.sort(null);
    int repair = kills / 2;
    List<Kill> plan = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      long pause = random.nextLong(0, 1000);
      // The repair kill comes the moment a step is seen running: a pause could let the step finish.
      plan.add(new Kill(i + 1, thresholds.get(i), i == repair ? 0 : pause, i == repair));
    }
    return new KillPlan(seed, plan);
  }

  /** The kill that lands inside the reconciliation repair. */
  public Kill repairKill() {
    return kills.stream().filter(Kill::duringRepair).findFirst().orElseThrow();
  }
}
