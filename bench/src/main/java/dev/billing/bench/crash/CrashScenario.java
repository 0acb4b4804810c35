package dev.billing.bench.crash;

import static dev.billing.bench.report.Progress.log;
import static dev.billing.bench.report.Progress.seconds;

import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.activities.payments.sandbox.SandboxSettings;
import dev.billing.api.ops.ReconciliationRuns;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.bench.BenchOptions;
import dev.billing.bench.batch.Parallel;
import dev.billing.bench.gateway.GatewayHttpServer;
import dev.billing.bench.report.Section;
import dev.billing.bench.scenarios.BenchSubscriptions;
import dev.billing.bench.scenarios.Waits;
import dev.billing.bench.stack.BenchStack;
import dev.billing.bench.stack.WorkerProcess;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.workflows.TaskQueues;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The crash scenario: a billing day collected by a worker that is killed with SIGKILL again and
 * again (and once while a reconciliation repair runs), after which the ledger invariant must hold
 * for every subscription: no charge twice, no charge without its record, no record without its
 * charge.
 *
 * <p>The gateway lives in the harness (the sandbox as strict as Stripe, at Stripe's live rate
 * limit, behind {@link GatewayHttpServer}), so what it charged survives every kill, as a real
 * gateway's charges do; the worker reaches it over HTTP. The sandbox's clock is the test server's.
 * Most cards pay; a few decline (soft, hard, or once then recover on a later dunning attempt), time
 * out after charging, or fail twice with a 5xx first.
 */
public final class CrashScenario {
  /**
   * From the due instant until every period is settled, the repair included; a run that hangs
   * fails.
   */
  private static final Duration DAY_DEADLINE = Duration.ofMinutes(40);

  private static final Duration KILL_DEADLINE = Duration.ofMinutes(15);
  static final String SET = "k";

  /**
   * The worker's payment activities per second, under the sandbox's limit (Stripe live, 100/s) as
   * production keeps it under Stripe's, leaving room for the reconciliation's reads.
   */
  static final int PAYMENTS_PER_SECOND = 80;

  private final BenchOptions options;
  private final Path logs;

  public CrashScenario(BenchOptions options, Path logs) {
    this.options = options;
    this.logs = logs;
  }

  /** One kill: when, which process, and whether a reconciliation was running. */
  record KillRecord(
      int number, long pid, double atSeconds, long chargeCalls, boolean repairRunning) {}

  /** The run's outcome; {@link #clean()} decides the exit status. */
  public record Result(Section section, boolean clean) {}

  /** Most cards pay; every 100 subscriptions hold six that do something else. */
  static PaymentMethod card(int i) {
    String token =
        switch (i % 100) {
          case 7, 57 -> SandboxPaymentMethods.INSUFFICIENT_FUNDS;
          case 17 -> SandboxPaymentMethods.CHARGE_DECLINED;
          case 47 -> SandboxPaymentMethods.recoversAfter(1);
          case 27, 77 -> SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE;
          case 37, 87 -> SandboxPaymentMethods.transientErrors(2);
          default -> SandboxPaymentMethods.VISA;
        };
    return new PaymentMethod(token, SandboxPaymentMethods.find(token).orElseThrow().mask());
  }

  /**
   * Whether subscription {@code i}'s first charge attempt declines: its period ends the day unpaid.
   */
  static boolean declinesOnTheDay(int i) {
    int r = i % 100;
    return r == 7 || r == 57 || r == 17 || r == 47;
  }

  public Result run() throws Exception {
    int n = options.crashSubscriptions();
    KillPlan plan = KillPlan.draw(options.seed(), options.kills(), n);
    log(
        "crash: seed "
            + plan.seed()
            + ", "
            + n
            + " subscriptions, "
            + plan.kills().size()
            + " kills, gateway "
            + options.crashGatewayLatencyMillis()
            + " ms per call");
    BenchStack.Settings settings =
        new BenchStack.Settings(
            "crash", options.slots(), options.cacheSize(), 0, options.workerHeap(), logs);
    SandboxGateway sandbox;
    try (BenchStack stack = BenchStack.startWithoutWorker(settings);
        GatewayHttpServer gateway =
            GatewayHttpServer.start(
                sandbox =
                    new SandboxGateway(
                        stack.clock(),
                        SandboxSettings.defaults()
                            .withRequestsPerSecond(SandboxSettings.LIVE_MODE_REQUESTS_PER_SECOND)),
                Duration.ofMillis(options.crashGatewayLatencyMillis()))) {
      Map<String, String> workerOptions =
          Map.of(
              "gateway-url",
              gateway.url(),
              "sticky",
              "false",
              "payments-per-second",
              Integer.toString(PAYMENTS_PER_SECOND));
      stack.startWorker(workerOptions);
      Instant start = stack.now();
      LocalDate today = LocalDate.ofInstant(start, ZoneOffset.UTC);
      LocalDate firstDue = today.plusDays(7);
      while (firstDue.getDayOfMonth() > 28) {
        firstDue = firstDue.plusDays(1);
      }
      int day = firstDue.getDayOfMonth();
      SubscriptionWorkflows workflows =
          new SubscriptionWorkflows(stack.client(), TaskQueues.BILLING, Duration.ofMinutes(2));
      long t0 = System.nanoTime();
      Parallel.map(
          range(n),
          options.createConcurrency(),
          i -> workflows.create(subscription(i, today, day, start)));
      log(
          String.format(
              "crash: %d subscriptions created in %.1f s, due %s", n, seconds(t0), firstDue));
      Instant dueAt = subscription(0, today, day, start).schedule().dueAt(1);

      long dayStart = System.nanoTime();
      // The jump lasts as long as the day's work: the test server moves its clock only between
      // tasks.
      CompletableFuture<Instant> jump =
          CompletableFuture.supplyAsync(() -> stack.advanceTo(dueAt.plusSeconds(1)));
      Repairs repairs =
          new Repairs(
              new ReconciliationRuns(stack.client(), TaskQueues.BILLING, stack.clock()),
              stack.client(),
              plan.seed());
      List<KillRecord> kills = new ArrayList<>();
      for (KillPlan.Kill kill : plan.kills()) {
        if (kill.duringRepair()) {
          repairs.startAndAwaitRunningStep(KILL_DEADLINE);
        } else {
          Waits.until(
              "charge request " + kill.afterChargeCalls() + " (kill " + kill.number() + ")",
              KILL_DEADLINE,
              Duration.ofMillis(20),
              () -> gateway.chargeCalls() >= kill.afterChargeCalls());
        }
        Thread.sleep(kill.pauseMillis());
        WorkerProcess victim = stack.worker();
        boolean repairRunning = repairs.running();
        long calls = gateway.chargeCalls();
        victim.kill();
        KillRecord record =
            new KillRecord(kill.number(), victim.pid(), seconds(dayStart), calls, repairRunning);
        kills.add(record);
        log(
            String.format(
                "crash: kill %d: SIGKILL to worker %d at %.1f s, %d charge requests so far%s",
                record.number(),
                record.pid(),
                record.atSeconds(),
                calls,
                repairRunning ? ", reconciliation repair running " + repairs.runningStep() : ""));
        stack.startWorker(workerOptions);
      }
      double killsDoneSeconds = seconds(dayStart);

      log("crash: waiting for every period to settle and for the repair to finish");
      Waits.until(
          "every period of the day settled",
          DAY_DEADLINE,
          Duration.ofSeconds(10),
          () -> unsettled(stack, n) == 0);
      ReconciliationSummary repair = repairs.awaitResult(DAY_DEADLINE);
      jump.get(DAY_DEADLINE.toMinutes(), TimeUnit.MINUTES);
      double daySeconds = seconds(dayStart);
      log(
          String.format(
              "crash: day settled and repair %s in %.1f s; auditing", repair.status(), daySeconds));

      Instant end = stack.now().plus(Duration.ofDays(1));
      List<GatewayChargeState> charges =
          patiently(() -> sandbox.listCharges(start.minus(Duration.ofDays(1)), end));
      List<LedgerAudit.Books> books =
          range(n).stream()
              .map(
                  i ->
                      new LedgerAudit.Books(
                          BenchSubscriptions.accountId(SET, i),
                          BenchSubscriptions.subscriptionId(SET, i)))
              .toList();
      LedgerAudit.Tally tally = LedgerAudit.audit(stack.store(), charges, books, 16);
      int goodUnpaid = goodCardsUnpaid(stack, n);
      CrashReport report =
          new CrashReport(
              options,
              plan,
              kills,
              tally,
              repair,
              repairs.killsDuring(kills),
              gateway.chargeCalls(),
              charges.size(),
              goodUnpaid,
              killsDoneSeconds,
              daySeconds);
      report.print();
      return new Result(report.section(), tally.clean());
    }
  }

  /**
   * The audit's own read of the sandbox counts against its rate limit like any other: a 429 is
   * retried.
   */
  private static <T> T patiently(java.util.function.Supplier<T> read) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return read.get();
      } catch (GatewayUnavailableException e) {
        if (attempt == 30) {
          throw e;
        }
        Thread.sleep(1_000);
      }
    }
  }

  private static Subscription subscription(int i, LocalDate today, int day, Instant at) {
    return BenchSubscriptions.requested(SET, i, today, day, "UTC", at).withPaymentMethod(card(i));
  }

  /**
   * Periods of the day not yet COMPLETED (good cards) or ERROR (declining ones), or not recorded at
   * all.
   */
  private static long unsettled(BenchStack stack, int n) {
    List<Boolean> settled =
        Parallel.map(
            range(n),
            16,
            i ->
                stack
                    .store()
                    .getPeriod(
                        BenchSubscriptions.accountId(SET, i),
                        BenchSubscriptions.subscriptionId(SET, i),
                        1)
                    .map(
                        p ->
                            p.status() == PeriodStatus.COMPLETED
                                || p.status() == PeriodStatus.ERROR)
                    .orElse(false));
    long left = settled.stream().filter(s -> !s).count();
    log("crash: " + left + " periods not settled yet");
    return left;
  }

  /**
   * Subscriptions whose card pays but whose period is not COMPLETED: not a ledger violation, but
   * reported.
   */
  private static int goodCardsUnpaid(BenchStack stack, int n) {
    List<Boolean> unpaid =
        Parallel.map(
            range(n),
            16,
            i ->
                !declinesOnTheDay(i)
                    && stack
                        .store()
                        .getPeriod(
                            BenchSubscriptions.accountId(SET, i),
                            BenchSubscriptions.subscriptionId(SET, i),
                            1)
                        .map(p -> p.status() != PeriodStatus.COMPLETED)
                        .orElse(true));
    return (int) unpaid.stream().filter(u -> u).count();
  }

  private static List<Integer> range(int n) {
    return IntStream.range(0, n).boxed().toList();
  }
}
