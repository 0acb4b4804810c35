package dev.billing.bench.scenarios;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.bench.BenchOptions;
import dev.billing.bench.batch.Parallel;
import dev.billing.bench.load.LoadGenerator;
import dev.billing.bench.report.Progress;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.Summary;
import dev.billing.bench.stack.ApiProcess;
import dev.billing.bench.stack.BenchStack;
import dev.billing.bench.stack.WorkerProcess;
import dev.billing.domain.Subscription;
import dev.billing.workflows.TaskQueues;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Scenarios 3 (sleeping scale) and 4 ({@link ReconciliationCost}), on one stack, each measured only
 * when asked for. Subscriptions are created in steps, some through the REST API, the rest through
 * the Temporal client, and all of them sleep (their first reminder is a week away). After each step
 * the worker's heap is read after a full GC. At the largest step a load generator reads
 * subscriptions and receipts through the API.
 */
public final class SleepScenario {
  private final BenchOptions options;
  private final Path logs;
  private final ObjectMapper json = new ObjectMapper();

  public SleepScenario(BenchOptions options, Path logs) {
    this.options = options;
    this.logs = logs;
  }

  private record Created(String accountId, String subscriptionId) {}

  private record Step(
      int total,
      double clientRate,
      double apiRate,
      Summary heap,
      Summary rss,
      Summary serversHeap) {}

  public List<Section> run() throws Exception {
    BenchStack.Settings settings =
        new BenchStack.Settings(
            "sleep", options.slots(), options.cacheSize(), 0, options.workerHeap(), logs);
    try (BenchStack stack = BenchStack.start(settings)) {
      ApiProcess api = stack.startApi(options.apiHeap(), "sleep");
      WorkerProcess worker = stack.worker();
      Instant now = stack.now();
      LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
      SubscriptionWorkflows workflows =
          new SubscriptionWorkflows(stack.client(), TaskQueues.BILLING, Duration.ofMinutes(2));
      // The day of the set reconciliation checks (billed tomorrow): the sleepers are due on the
      // others.
      LocalDate billed = today.plusDays(1);
      int reconciledDay = billed.getDayOfMonth();
      boolean sleeping = options.scenarios().contains(3);
      ReconciliationCost reconciliation =
          options.scenarios().contains(4)
              ? ReconciliationCost.billFixedSet(options, stack, workflows, today, billed, now)
              : null;
      LocalDate start = today.plusDays(10);

      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      List<Created> created = Collections.synchronizedList(new ArrayList<>());
      List<Step> steps = new ArrayList<>();
      List<ReconciliationCost.Step> reconciled = new ArrayList<>();
      int total = 0;
      for (int target : options.sleepers()) {
        int delta = target - total;
        int viaApi = (int) Math.round(delta * options.apiShare());
        int viaClient = delta - viaApi;
        int from = total;
        long t0 = System.nanoTime();
        Parallel.map(
            range(from, from + viaClient),
            options.createConcurrency(),
            i -> {
              Subscription sub =
                  BenchSubscriptions.requested(
                      "s", i, start, sleeperDay(i, reconciledDay), "UTC", now);
              workflows.create(sub);
              created.add(new Created(sub.accountId(), sub.subscriptionId()));
              return null;
            });
        double clientRate = viaClient / ((System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        Parallel.map(
            range(from + viaClient, target),
            options.createConcurrency(),
            i -> {
              created.add(createThroughApi(http, api, i, start, sleeperDay(i, reconciledDay)));
              return null;
            });
        double apiRate = viaApi == 0 ? Double.NaN : viaApi / ((System.nanoTime() - t0) / 1e9);
        total = target;
        Progress.log(
            String.format(
                "sleep: %d sleeping; created %.0f/s (client), %.0f/s (API)",
                total, clientRate, apiRate));
        if (sleeping) {
          Step s = measure(worker, total, clientRate, apiRate);
          steps.add(s);
          Progress.log(
              String.format(
                  "sleep: worker heap %.0f MB after GC, RSS %.0f MB",
                  s.heap().median() / 1e6, s.rss().median() / 1e6));
        }
        if (reconciliation != null) {
          reconciled.add(reconciliation.measure(total));
        }
      }
      List<Section> sections = new ArrayList<>();
      if (sleeping) {
        sections.add(sleepSection(steps, load(api, List.copyOf(created)), worker));
      }
      if (reconciliation != null) {
        sections.add(reconciliation.section(reconciled));
      }
      return sections;
    }
  }

  /**
   * The load runs at the largest step, GET subscription and GET receipts of random sleepers in
   * turn.
   */
  private List<LoadGenerator.Result> load(ApiProcess api, List<Created> targets) throws Exception {
    List<LoadGenerator.Result> loads = new ArrayList<>();
    // Run -1 warms the API's JIT and connection pools and is not reported: a cold first run's p99
    // speaks of the JIT, not of the API.
    for (int trial = -1; trial < options.apiTrials(); trial++) {
      Random random = new Random(trial);
      LoadGenerator.Result load =
          LoadGenerator.run(
              options.apiRate(),
              Duration.ofSeconds(options.apiSeconds()),
              api.authorization(),
              i -> {
                Created c = targets.get(random.nextInt(targets.size()));
                return i % 2 == 0
                    ? new LoadGenerator.Target(
                        "GET subscription",
                        api.baseUrl()
                            + "/v1/accounts/"
                            + c.accountId()
                            + "/subscriptions/"
                            + c.subscriptionId())
                    : new LoadGenerator.Target(
                        "GET receipts",
                        api.baseUrl() + "/v1/accounts/" + c.accountId() + "/receipts");
              });
      if (trial >= 0) {
        loads.add(load);
      }
    }
    return loads;
  }

  /** Billing days of the sleepers: every day 1..28 but the reconciled one. */
  static int sleeperDay(int i, int reconciledDay) {
    return (reconciledDay + i % 27) % 28 + 1;
  }

  private Created createThroughApi(
      HttpClient http, ApiProcess api, int i, LocalDate start, int day) {
    String account = BenchSubscriptions.accountId("s", i);
    String body =
        "{\"sku\":\""
            + BenchSubscriptions.SKU
            + "\",\"amount\":\"9.99\",\"currency\":\"USD\","
            + "\"email\":\"customer-s-"
            + i
            + "@example.com\",\"paymentMethod\":\"pm_card_visa\","
            + "\"billingDay\":"
            + day
            + ",\"timeZone\":\"UTC\",\"startDate\":\""
            + start
            + "\"}";
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(api.baseUrl() + "/v1/accounts/" + account + "/subscriptions"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", "bench-" + i)
            .header("Authorization", api.authorization())
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    IOException lost = null;
    // The Idempotency-Key makes a resend safe: a pooled connection the server had just closed
    // loses the request before it is read.
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201 && response.statusCode() != 200) {
          throw new IllegalStateException(
              "POST subscriptions answered " + response.statusCode() + ": " + response.body());
        }
        return new Created(account, json.readTree(response.body()).get("subscriptionId").asText());
      } catch (IOException e) {
        lost = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    throw new IllegalStateException("create through the API failed", lost);
  }

  private Step measure(WorkerProcess worker, int total, double clientRate, double apiRate)
      throws Exception {
    List<Double> heap = new ArrayList<>();
    List<Double> rss = new ArrayList<>();
    List<Double> servers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      WorkerProcess.Stats stats = worker.statsAfterGc();
      heap.add((double) stats.heapUsed());
      rss.add((double) stats.rss());
      System.gc();
      Runtime runtime = Runtime.getRuntime();
      servers.add((double) (runtime.totalMemory() - runtime.freeMemory()));
    }
    return new Step(
        total, clientRate, apiRate, Summary.of(heap), Summary.of(rss), Summary.of(servers));
  }

  private Section sleepSection(
      List<Step> steps, List<LoadGenerator.Result> loads, WorkerProcess worker) {
    Section section = new Section("sleep", "3. Sleeping scale");
    section
        .parameter("steps", options.sleepers())
        .parameter("apiShare", options.apiShare())
        .parameter("workerHeap", worker.heap())
        .parameter("cache", worker.cacheSize())
        .parameter("apiRate", options.apiRate())
        .parameter("apiSeconds", options.apiSeconds());
    List<List<String>> rows = new ArrayList<>();
    for (Step s : steps) {
      rows.add(
          List.of(
              Integer.toString(s.total()),
              ReportWriter.number(s.heap().median() / 1e6),
              ReportWriter.number(s.rss().median() / 1e6),
              ReportWriter.number(s.serversHeap().median() / 1e6),
              ReportWriter.number(s.clientRate()),
              ReportWriter.number(s.apiRate())));
    }
    section.table(
        "Per step: worker heap after full GC and RSS (median of 3 readings), the harness's heap"
            + " (test server + DynamoDB Local, for contrast), creation rates",
        List.of(
            "sleeping",
            "worker heap MB",
            "worker RSS MB",
            "test server + DynamoDB Local heap MB",
            "created/s (client)",
            "created/s (API)"),
        rows);
    Step first = steps.get(0);
    Step last = steps.get(steps.size() - 1);
    section.figure(
        "heapGrowth",
        "worker heap after GC, largest step / first step ("
            + last.total()
            + " vs "
            + first.total()
            + ")",
        "ratio",
        Summary.ratio(last.heap(), first.heap()));
    section.figure(
        "rssGrowth",
        "worker RSS, largest step / first step",
        "ratio",
        Summary.ratio(last.rss(), first.rss()));
    section.figure(
        "heapAtLargest",
        "worker heap after GC at " + last.total() + " sleeping",
        "MB",
        last.heap().times(1e-6));
    section.figure(
        "creationClient",
        "creation rate through the Temporal client (per step)",
        "subscriptions/s",
        Summary.of(steps.stream().map(Step::clientRate).toList()));
    if (steps.stream().noneMatch(s -> Double.isNaN(s.apiRate()))) {
      section.figure(
          "creationApi",
          "creation rate through the REST API (per step)",
          "subscriptions/s",
          Summary.of(steps.stream().map(Step::apiRate).toList()));
    }
    for (String endpoint : List.of("GET subscription", "GET receipts")) {
      section.figure(
          key(endpoint) + "P50",
          endpoint + " p50 at " + options.apiRate() + " req/s",
          "ms",
          Summary.of(loads.stream().map(l -> l.percentile(endpoint, 50)).toList()));
      section.figure(
          key(endpoint) + "P99",
          endpoint + " p99 at " + options.apiRate() + " req/s",
          "ms",
          Summary.of(loads.stream().map(l -> l.percentile(endpoint, 99)).toList()));
    }
    section.figure(
        "loadFailures",
        "load: failed requests (non-2xx or errors)",
        "requests",
        Summary.of(loads.stream().map(l -> (double) l.failures()).toList()));
    section.figure(
        "loadAchievedRate",
        "load: requests sent per second",
        "req/s",
        Summary.of(loads.stream().map(LoadGenerator.Result::achievedRate).toList()));
    section.note(
        "Sleeping workflows hold no worker memory: the worker keeps at most its sticky cache ("
            + worker.cacheSize()
            + " workflows, the SDK default) and replays any other from its history when a"
            + " timer fires. The test server, in contrast, holds every history in memory, so the harness's heap grows with N;"
            + " a real Temporal cluster keeps them in its database.");
    section.note(
        "Latency is measured from each request's scheduled send time (open loop), by a generator"
            + " on the same machine as the API, DynamoDB Local and the test server. Receipts lists are empty"
            + " (sleepers have not been billed), so that figure is the query's floor.");
    return section;
  }

  private static String key(String endpoint) {
    return endpoint.equals("GET subscription") ? "getSubscription" : "listReceipts";
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }
}
