package dev.billing.bench.scenarios;

import dev.billing.bench.BenchOptions;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.Summary;
import dev.billing.domain.DueInstants;
import dev.billing.store.DateKeySharding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Scenario 5: the due-date indexes' hottest partition on a large billing day, modelled. N
 * subscriptions are due on one day; each charge's record moves its item in GSI-2 from the day's key
 * to the next due date's (a delete in one partition, a put in another) and puts it back in GSI-1
 * under its next reminder date, so every partition key of those dates receives one write per
 * subscription it holds. Charges happen when they are due, at most {@code fleetRate} a second (a
 * queue in due order); the model counts, second by second, the writes landing on each index key and
 * reports the largest, against DynamoDB's 1,000 write units a second per partition. Shards come
 * from the store's own {@link DateKeySharding}; due instants from the function the workflow uses.
 */
public final class HotPartitionModel {
  /** DynamoDB's write limit per partition (a projected item under 1 KB is one write unit). */
  static final int PARTITION_WRITE_LIMIT = 1000;

  private HotPartitionModel() {}

  /**
   * @param peakPerKey the most writes one index key received in one second
   * @param secondsOverLimit seconds in which some key received more than the partition limit
   * @param billingSeconds from the first charge to the last
   */
  record Result(
      int peakPerKey, int secondsOverLimit, int billingSeconds, int peakChargesPerSecond) {}

  /**
   * @param dueSecond each subscription's due instant, in seconds after the day's first one
   * @param shardOf each subscription's shard
   */
  static Result simulate(
      int n,
      ToIntFunction<Integer> dueSecond,
      ToIntFunction<Integer> shardOf,
      int shards,
      int fleetRate) {
    long[] order = new long[n];
    for (int i = 0; i < n; i++) {
      // due second in the high bits, index in the low ones: sorting orders the queue by due time
      order[i] = ((long) dueSecond.applyAsInt(i) << 32) | i;
    }
    Arrays.sort(order);
    int next = 0;
    int peak = 0;
    int peakCharges = 0;
    int over = 0;
    int second = (int) (order[0] >>> 32);
    int first = second;
    int[] perShard = new int[shards];
    while (next < n) {
      Arrays.fill(perShard, 0);
      int charged = 0;
      while (next < n && charged < fleetRate && (int) (order[next] >>> 32) <= second) {
        perShard[shardOf.applyAsInt((int) order[next])]++;
        next++;
        charged++;
      }
      int hottest = Arrays.stream(perShard).max().orElse(0);
      peak = Math.max(peak, hottest);
      peakCharges = Math.max(peakCharges, charged);
      if (hottest > PARTITION_WRITE_LIMIT) {
        over++;
      }
      second = charged == 0 && next < n ? (int) (order[next] >>> 32) : second + 1;
    }
    return new Result(peak, over, second - first, peakCharges);
  }

  public static Section section(BenchOptions options) {
    int n = (int) options.modelDue();
    int shards = options.shards();
    int fleet = (int) options.fleetRate();
    DateKeySharding sharded = DateKeySharding.of(shards);
    String[] ids = new String[n];
    for (int i = 0; i < n; i++) {
      ids[i] = "sub_" + Integer.toString(i, 36) + "_" + i % 97;
    }
    int[] shardOf = new int[n];
    for (int i = 0; i < n; i++) {
      shardOf[i] = sharded.shardOf(ids[i]);
    }
    Section section =
        new Section("hotPartitions", "5. Hot index partitions on a large billing day (model)");
    section
        .parameter("subscriptionsDueOnOneDay", n)
        .parameter("shards", shards)
        .parameter("fleetRate (cycles/s)", fleet);
    List<List<String>> rows = new ArrayList<>();
    Result unshardedMidnight = simulate(n, i -> 0, i -> 0, 1, fleet);
    Result shardedMidnight = simulate(n, i -> 0, i -> shardOf[i], shards, fleet);
    Duration window = DueInstants.DEFAULT_WINDOW;
    int[] offset = new int[n];
    for (int i = 0; i < n; i++) {
      offset[i] = (int) DueInstants.offset(ids[i], window).getSeconds();
    }
    Result unshardedSpread = simulate(n, i -> offset[i], i -> 0, 1, fleet);
    Result shardedSpread = simulate(n, i -> offset[i], i -> shardOf[i], shards, fleet);
    String spread = "spread over " + window.toHours() + " h (DueInstants)";
    rows.add(row("one key per date (the seeds' design)", "all at 00:00", unshardedMidnight));
    rows.add(row(shards + " shards per date", "all at 00:00", shardedMidnight));
    rows.add(row("one key per date", spread, unshardedSpread));
    rows.add(row(shards + " shards per date", spread, shardedSpread));
    section.table(
        "Peak writes per index partition key per second (GSI-2: the due date's keys lose"
            + " each item, the next due date's gain it; GSI-1's next reminder keys gain it: each key one"
            + " write per subscription it holds)",
        List.of(
            "index keys",
            "due instants",
            "peak writes/s on one key",
            "seconds over 1,000/s",
            "billing lasts s",
            "peak charges/s"),
        rows);
    section.figure(
        "peakPerKeyUnsharded",
        "peak writes/s on one index key, one key per date",
        "writes/s",
        Summary.of(unshardedMidnight.peakPerKey()));
    section.figure(
        "peakPerKeySharded",
        "peak writes/s on one index key, " + shards + " shards",
        "writes/s",
        Summary.of(shardedMidnight.peakPerKey()));
    section.figure(
        "peakPerKeySpread",
        "peak writes/s on one index key, one key per date, due instants spread",
        "writes/s",
        Summary.of(unshardedSpread.peakPerKey()));
    section.figure(
        "peakPerKeyShardedSpread",
        "peak writes/s on one index key, " + shards + " shards and due instants spread",
        "writes/s",
        Summary.of(shardedSpread.peakPerKey()));
    section.figure(
        "peakChargesSpread",
        "peak charges (timers firing) per second, due instants spread",
        "charges/s",
        Summary.of(shardedSpread.peakChargesPerSecond()));
    section.note(
        "A modelled fleet bills at most "
            + fleet
            + " cycles a second (--fleet-rate): everything"
            + " due at once queues behind it. One key per date then takes every write of the fleet; with "
            + shards
            + " shards each key takes about 1/"
            + shards
            + " of them; the peak is a little above"
            + " that because each second's charges are a random sample of the shards (the model takes"
            + " the store's own hash of its ids). The cost on the read side: a due-date"
            + " query reads "
            + shards
            + " partitions, at least "
            + ReportWriter.number(shards * 0.5)
            + " read units per date instead of 0.5. Spreading the due instants over the default window"
            + " turns the midnight spike into about n / window seconds charges a second, so neither the"
            + " timers, nor the gateway, nor the index keys see the whole day in one second.");
    return section;
  }

  private static List<String> row(String keys, String instants, Result r) {
    return List.of(
        keys,
        instants,
        ReportWriter.number(r.peakPerKey()),
        Integer.toString(r.secondsOverLimit()),
        Integer.toString(r.billingSeconds()),
        ReportWriter.number(r.peakChargesPerSecond()));
  }
}
