package dev.billing.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The benchmark's parameters, {@code --name=value}; defaults finish in a few minutes on two cores.
 * {@code bench/run --help} lists them.
 */
public record BenchOptions(
    Set<Integer> scenarios,
    int peak,
    int warmup,
    int trials,
    int slots,
    int cacheSize,
    int gatewayLatencyMillis,
    int createConcurrency,
    String workerHeap,
    String apiHeap,
    int historySample,
    List<Integer> sleepers,
    double apiShare,
    int apiRate,
    int apiSeconds,
    int apiTrials,
    int reconciliationDue,
    double priceActions,
    double priceWrite,
    double priceRead,
    long modelDue,
    int shards,
    double fleetRate,
    int crashSubscriptions,
    int kills,
    long seed,
    int crashGatewayLatencyMillis,
    Path out) {

  /**
   * The crash scenario's number in {@link #scenarios()}; {@code --scenarios=crash} names it too.
   */
  public static final int CRASH = 6;

  static final Map<String, String> HELP = helpText();

  private static Map<String, String> helpText() {
    Map<String, String> help = new LinkedHashMap<>();
    help.put(
        "scenarios",
        "1,2,3,4,5  which scenarios to run (1 and 2 run together; 5 is the hot-partition model; crash (or 6), the crash test, only when named)");
    help.put(
        "peak", "2000  subscriptions due at the same instant (scenario 1); 20000 and more by flag");
    help.put(
        "warmup",
        "2  billing days run before the measured ones (scenario 1), shown in the trials table but not summarised: the first days run slower while the JIT compiles each process's hot paths");
    help.put("trials", "3  billing days measured (one per cycle) in scenario 1");
    help.put(
        "slots",
        "64  the worker's concurrent activity and workflow-task slots; the batch baseline and the ceiling use as many threads");
    help.put("cache", "600  the worker's sticky workflow cache (the SDK's default)");
    help.put(
        "gateway-latency",
        "0  milliseconds each charge takes at the sandbox gateway, on both paths of the peak (0: it answers at once, the worst case for the workflow path; Stripe answers in a few hundred)");
    help.put("create-concurrency", "16  concurrent creations");
    help.put("worker-heap", "768m  -Xmx (and -Xms) of the worker process");
    help.put("api-heap", "512m  -Xmx of the API process");
    help.put(
        "history-sample",
        "100  workflows whose histories are read to count actions and time each step");
    help.put(
        "sleepers",
        "1000,2000,4000  sleeping subscriptions at each step of scenario 3 (e.g. 1000,10000,100000)");
    help.put(
        "api-share",
        "0.2  share of the scenario 3 creations that go through the REST API (the rest through the Temporal client)");
    help.put("api-rate", "200  requests per second of the load generator");
    help.put("api-seconds", "10  seconds of each load run");
    help.put("api-trials", "3  load runs at the largest step (after one unreported warm-up run)");
    help.put(
        "reconciliation-due",
        "100  subscriptions due on the reconciled day while the total grows (scenario 4)");
    help.put("price-actions", "50  USD per million Temporal Cloud actions");
    help.put("price-write", "0.625  USD per million DynamoDB on-demand write request units");
    help.put("price-read", "0.125  USD per million DynamoDB on-demand read request units");
    help.put("model-due", "1000000  subscriptions due on one day in the hot-partition model");
    help.put("shards", "16  date-key shards in the hot-partition model");
    help.put(
        "fleet-rate",
        "2000  cycles per second the modelled fleet bills at when everything is due at once");
    help.put("crash-subscriptions", "2000  subscriptions due on the crash scenario's billing day");
    help.put(
        "kills",
        "20  SIGKILLs of the worker during the crash scenario's day (one while a reconciliation repair runs)");
    help.put(
        "seed",
        "random  seed of the crash scenario's kill moments (printed; give it to repeat a run)");
    help.put(
        "crash-gateway-latency",
        "200  milliseconds each call to the crash scenario's gateway takes (half before it acts, half after)");
    help.put("out", "bench/reports  where the report goes");
    return help;
  }

  public static BenchOptions parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    HELP.forEach((name, text) -> values.put(name, text.substring(0, text.indexOf(' '))));
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException(
            "expected --name=value, got \"" + arg + "\" (see --help)");
      }
      String name = arg.substring(2, eq);
      if (!values.containsKey(name)) {
        throw new IllegalArgumentException("unknown option --" + name + " (see --help)");
      }
      values.put(name, arg.substring(eq + 1));
    }
    BenchOptions options =
        new BenchOptions(
            new TreeSet<>(ints(values.get("scenarios").replace("crash", Integer.toString(CRASH)))),
            positive("peak", values),
            atLeastZero("warmup", values),
            positive("trials", values),
            positive("slots", values),
            positive("cache", values),
            atLeastZero("gateway-latency", values),
            positive("create-concurrency", values),
            values.get("worker-heap"),
            values.get("api-heap"),
            positive("history-sample", values),
            ints(values.get("sleepers")),
            Double.parseDouble(values.get("api-share")),
            positive("api-rate", values),
            positive("api-seconds", values),
            positive("api-trials", values),
            positive("reconciliation-due", values),
            Double.parseDouble(values.get("price-actions")),
            Double.parseDouble(values.get("price-write")),
            Double.parseDouble(values.get("price-read")),
            Long.parseLong(values.get("model-due")),
            positive("shards", values),
            Double.parseDouble(values.get("fleet-rate")),
            positive("crash-subscriptions", values),
            positive("kills", values),
            values.get("seed").equals("random")
                ? new java.security.SecureRandom().nextLong()
                : Long.parseLong(values.get("seed")),
            atLeastZero("crash-gateway-latency", values),
            Path.of(values.get("out")));
    if (options.apiShare < 0 || options.apiShare > 1) {
      throw new IllegalArgumentException("--api-share must be between 0 and 1");
    }
    if (!Set.of(1, 2, 3, 4, 5, CRASH).containsAll(options.scenarios)) {
      throw new IllegalArgumentException("--scenarios takes numbers from 1 to 5, and crash");
    }
    for (int i = 1; i < options.sleepers.size(); i++) {
      if (options.sleepers.get(i) <= options.sleepers.get(i - 1)) {
        throw new IllegalArgumentException("--sleepers must grow: " + options.sleepers);
      }
    }
    return options;
  }

  private static int atLeastZero(String name, Map<String, String> values) {
    int value = Integer.parseInt(values.get(name));
    if (value < 0) {
      throw new IllegalArgumentException("--" + name + " must not be negative");
    }
    return value;
  }

  private static int positive(String name, Map<String, String> values) {
    int value = Integer.parseInt(values.get(name));
    if (value < 1) {
      throw new IllegalArgumentException("--" + name + " must be at least 1");
    }
    return value;
  }

  private static List<Integer> ints(String list) {
    List<Integer> ints = new ArrayList<>();
    Arrays.stream(list.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .forEach(s -> ints.add(Integer.parseInt(s)));
    if (ints.isEmpty()) {
      throw new IllegalArgumentException("empty list: " + list);
    }
    return ints;
  }

  /** As the report shows them. */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("scenarios", scenarios);
    map.put("peak", peak);
    map.put("warmup", warmup);
    map.put("trials", trials);
    map.put("slots", slots);
    map.put("cache", cacheSize);
    map.put("gateway-latency (ms)", gatewayLatencyMillis);
    map.put("create-concurrency", createConcurrency);
    map.put("worker-heap", workerHeap);
    map.put("api-heap", apiHeap);
    map.put("history-sample", historySample);
    map.put("sleepers", sleepers);
    map.put("api-share", apiShare);
    map.put("api-rate", apiRate);
    map.put("api-seconds", apiSeconds);
    map.put("api-trials", apiTrials);
    map.put("reconciliation-due", reconciliationDue);
    map.put("price-actions (USD/M)", priceActions);
    map.put("price-write (USD/M WRU)", priceWrite);
    map.put("price-read (USD/M RRU)", priceRead);
    map.put("model-due", modelDue);
    map.put("shards", shards);
    map.put("fleet-rate", fleetRate);
    map.put("crash-subscriptions", crashSubscriptions);
    map.put("kills", kills);
    map.put("seed", seed);
    map.put("crash-gateway-latency (ms)", crashGatewayLatencyMillis);
    return map;
  }
}
