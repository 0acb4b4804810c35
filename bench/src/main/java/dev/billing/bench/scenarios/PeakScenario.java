package dev.billing.bench.scenarios;

import static dev.billing.bench.report.Progress.log;
import static dev.billing.bench.report.Progress.seconds;

import dev.billing.activities.notifications.OutboxNotifier;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxSettings;
import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.bench.BenchOptions;
import dev.billing.bench.batch.BatchBilling;
import dev.billing.bench.batch.Parallel;
import dev.billing.bench.batch.StoreCeiling;
import dev.billing.bench.dynamo.ConsumedUnits;
import dev.billing.bench.report.CpuProfile;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.ThreadCpu;
import dev.billing.bench.stack.BenchStack;
import dev.billing.bench.stack.CountingStore;
import dev.billing.bench.stack.LatentGateway;
import dev.billing.bench.stack.WorkerProcess;
import dev.billing.bench.temporal.Histories;
import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DueInstants;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Subscription;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.subscription.SubscriptionChanges;
import io.temporal.api.history.v1.HistoryEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Scenario 1 (billing-day peak) and the measurements scenario 2 (cost per cycle) takes from it.
 *
 * <p>Three sets of N subscriptions on one stack, all due on the same day: W billed by their
 * workflows, B by the seeds' batch design ({@link BatchBilling}), C by the raw store ({@link
 * StoreCeiling}). Each trial is one billing day (cycle k): the clock is moved to one hour before
 * the due instant (every reminder fires and is recorded, untimed), then past it, and the time until
 * the worker has recorded N paid periods (each with its receipt, in one transaction) is the
 * workflow path's figure; then the batch job bills B and the ceiling writes C's transactions, timed
 * alike.
 */
public final class PeakScenario {
  private static final Duration PROGRESS_TIMEOUT = Duration.ofMinutes(30);

  private final BenchOptions options;
  private final Path logs;

  public PeakScenario(BenchOptions options, Path logs) {
    this.options = options;
    this.logs = logs;
  }

  /** One billing day's measurements. */
  record Trial(
      int cycle,
      double workflowSeconds,
      double batchSeconds,
      double ceilingSeconds,
      int workflowVerified,
      int batchVerified,
      ConsumedUnits workflowCapacity,
      ConsumedUnits batchCapacity,
      Map<String, Long> workerCpu,
      Map<String, Long> harnessCpu,
      double workerCpuSeconds,
      double harnessCpuSeconds,
      double machineBusyCores,
      double batchCpuSeconds,
      Map<String, Long> batchCpu,
      Map<String, Long> workerProfile,
      Map<String, Long> harnessProfile,
      Map<String, Long> batchProfile) {}

  public List<Section> run() throws Exception {
    int n = options.peak();
    BenchStack.Settings settings =
        new BenchStack.Settings(
            "peak",
            options.slots(),
            options.cacheSize(),
            options.gatewayLatencyMillis(),
            options.workerHeap(),
            logs);
    try (BenchStack stack = BenchStack.start(settings)) {
      WorkerProcess worker = stack.worker();
      Instant now = stack.now();
      LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
      LocalDate firstDue = today.plusDays(7);
      while (firstDue.getDayOfMonth() > 28) {
        firstDue = firstDue.plusDays(1);
      }
      int day = firstDue.getDayOfMonth();
      int ceilingDay = day % 28 + 1;
      log("peak: " + n + " subscriptions per path, due on day " + day + " from " + firstDue);

      // W: through the Temporal client, as the API creates them (update-with-start, 201 once
      // recorded).
      SubscriptionWorkflows workflows =
          new SubscriptionWorkflows(stack.client(), TaskQueues.BILLING, Duration.ofMinutes(2));
      long t0 = System.nanoTime();
      Parallel.map(
          range(n),
          options.createConcurrency(),
          i -> workflows.create(BenchSubscriptions.requested("w", i, today, day, "UTC", now)));
      double createSeconds = seconds(t0);
      log(String.format("peak: %d workflows created in %.1f s", n, createSeconds));
      // B and C: written directly, as a batch system's signup would.
      Parallel.map(
          range(n),
          options.slots(),
          i ->
              stack
                  .store()
                  .createSubscription(
                      SubscriptionChanges.creation(
                          BenchSubscriptions.requested("b", i, today, day, "UTC", now),
                          null,
                          now)));
      List<Subscription> ceiling =
          Parallel.map(
              range(n),
              options.slots(),
              i -> {
                var change =
                    SubscriptionChanges.creation(
                        BenchSubscriptions.requested("c", i, today, ceilingDay, "UTC", now),
                        null,
                        now);
                stack.store().createSubscription(change);
                return change.next();
              });
      BillingSchedule schedule =
          BenchSubscriptions.requested("w", 0, today, day, "UTC", now).schedule();

      // Unlimited, as the benchmark's worker: the batch's ceiling is measured, not a gateway's
      // limit.
      PaymentGateway gateway =
          LatentGateway.of(
              new SandboxGateway(stack.clock(), SandboxSettings.defaults().withoutRateLimit()),
              Duration.ofMillis(options.gatewayLatencyMillis()));
      BatchBilling batch =
          new BatchBilling(
              stack.store(), gateway, new OutboxNotifier(), stack.clock(), options.slots());
      List<Trial> warmups = new ArrayList<>();
      List<Trial> trials = new ArrayList<>();
      int cycles = options.warmup() + options.trials();
      for (int cycle = 1; cycle <= cycles; cycle++) {
        BillingDay billed = trial(stack, worker, batch, schedule, cycle, n, ceiling);
        Trial trial = billed.trial();
        ceiling = billed.ceiling();
        boolean warmup = cycle <= options.warmup();
        (warmup ? warmups : trials).add(trial);
        log(
            String.format(
                "peak: cycle %d%s: workflow %.0f/s, batch %.0f/s, ceiling %.0f/s",
                cycle,
                warmup ? " (warm-up)" : "",
                n / trial.workflowSeconds(),
                n / trial.batchSeconds(),
                n / trial.ceilingSeconds()));
      }
      List<List<List<HistoryEvent>>> histories = sampleHistories(stack, n);
      // Only the cost model reports the due-window sample.
      List<List<HistoryEvent>> spread =
          options.scenarios().contains(2)
              ? spreadSample(stack, worker, workflows, schedule.dueDate(cycles))
              : List.of();
      List<Section> sections = new ArrayList<>();
      if (options.scenarios().contains(1)) {
        sections.add(PeakSection.of(options, n, createSeconds, warmups, trials, histories));
      }
      if (options.scenarios().contains(2)) {
        sections.add(new CostModel(options, stack, n, trials, histories, spread).section());
      }
      return sections;
    }
  }

  /** A trial's measurements, and C as it left it: the next trial bills the cycle after. */
  private record BillingDay(Trial trial, List<Subscription> ceiling) {}

  private BillingDay trial(
      BenchStack stack,
      WorkerProcess worker,
      BatchBilling batch,
      BillingSchedule schedule,
      int cycle,
      int n,
      List<Subscription> ceiling)
      throws Exception {
    LocalDate due = schedule.dueDate(cycle);
    Instant dueAt = schedule.dueAt(cycle);
    CountingStore.Counts base = worker.counts();
    worker.resetMeter();

    // Reminders, untimed: every W workflow reminds and records it; the batch's reminder job does B.
    stack.advanceTo(dueAt.minus(Duration.ofHours(1)));
    Waits.until(
        "W reminders of cycle " + cycle,
        PROGRESS_TIMEOUT,
        Duration.ofMillis(200),
        () -> worker.counts().reminded() >= base.reminded() + n);
    stack.harnessMeter().reset();
    requireAll("batch reminders", batch.remind(schedule.reminderDate(cycle)), n);

    // The peak: every W payment timer fires at dueAt.
    Map<String, Long> harnessBefore = ThreadCpu.snapshot();
    long harnessCpuBefore = ThreadCpu.processCpu();
    SystemCpu machineBefore = SystemCpu.read();
    WorkerProcess.Stats before = worker.stats();
    worker.startProfile();
    CpuProfile harnessProfile = CpuProfile.start();
    long start = System.nanoTime();
    stack.advanceTo(dueAt.plusSeconds(1));
    Waits.until(
        "W payments of cycle " + cycle,
        PROGRESS_TIMEOUT,
        Duration.ofMillis(50),
        () -> worker.counts().paid() >= base.paid() + n);
    double workflowSeconds = seconds(start);
    Map<String, Long> harnessSamples = harnessProfile.stop();
    Map<String, Long> workerSamples = worker.stopProfile();
    SystemCpu machineAfter = SystemCpu.read();
    WorkerProcess.Stats after = worker.stats();
    Map<String, Long> harnessCpu = ThreadCpu.delta(harnessBefore, ThreadCpu.snapshot(), 8);
    double harnessCpuSeconds = (ThreadCpu.processCpu() - harnessCpuBefore) / 1e9;
    Map<String, Long> workerCpu = ThreadCpu.delta(before.threadCpu(), after.threadCpu(), 8);

    // The batch's payment job over B, then the ceiling over C.
    long batchCpuBefore = ThreadCpu.processCpu();
    Map<String, Long> batchThreadsBefore = ThreadCpu.snapshot();
    CpuProfile batchProfile = CpuProfile.start();
    start = System.nanoTime();
    int charged = batch.charge(due);
    double batchSeconds = seconds(start);
    Map<String, Long> batchSamples = batchProfile.stop();
    double batchCpuSeconds = (ThreadCpu.processCpu() - batchCpuBefore) / 1e9;
    Map<String, Long> batchCpu = ThreadCpu.delta(batchThreadsBefore, ThreadCpu.snapshot(), 8);
    requireAll("batch charges", charged, n);
    ConsumedUnits batchCapacity = stack.harnessMeter().snapshot();

    start = System.nanoTime();
    List<Subscription> ceilingAfter =
        StoreCeiling.payAll(stack.store(), ceiling, options.slots(), stack.now());
    double ceilingSeconds = seconds(start);

    int workflowVerified = completed(stack, "w", n, cycle);
    int batchVerified = completed(stack, "b", n, cycle);
    return new BillingDay(
        new Trial(
            cycle,
            workflowSeconds,
            batchSeconds,
            ceilingSeconds,
            workflowVerified,
            batchVerified,
            after.capacity(),
            batchCapacity,
            workerCpu,
            harnessCpu,
            (after.cpuMillis() - before.cpuMillis()) / 1000.0,
            harnessCpuSeconds,
            machineAfter.busyCoresSince(machineBefore),
            batchCpuSeconds,
            batchCpu,
            workerSamples,
            harnessSamples,
            batchSamples),
        ceilingAfter);
  }

  /** Periods of {@code cycle} read back COMPLETED (the receipt is in the same transaction). */
  private int completed(BenchStack stack, String set, int n, int cycle) {
    List<Boolean> done =
        Parallel.map(
            range(n),
            options.slots(),
            i ->
                stack
                    .store()
                    .getPeriod(
                        BenchSubscriptions.accountId(set, i),
                        BenchSubscriptions.subscriptionId(set, i),
                        cycle)
                    .map(p -> p.status() == PeriodStatus.COMPLETED && p.transactionId() != null)
                    .orElse(false));
    return (int) done.stream().filter(Boolean::booleanValue).count();
  }

  /**
   * A few subscriptions with a due window (the API's default), billed two days after the last
   * trial, before W's next reminder: the first run of each shows what the due-instant spread adds
   * to a cycle's history. Returns those first runs.
   */
  private List<List<HistoryEvent>> spreadSample(
      BenchStack stack, WorkerProcess worker, SubscriptionWorkflows workflows, LocalDate lastDue)
      throws Exception {
    int sample = 20;
    LocalDate due = lastDue.plusDays(2);
    Instant at = stack.now();
    long paid = worker.counts().paid();
    Parallel.map(
        range(sample),
        options.createConcurrency(),
        i -> {
          Subscription requested =
              BenchSubscriptions.requested(
                  "v", i, lastDue.plusDays(1), due.getDayOfMonth(), "UTC", at);
          return workflows.create(
              requested.withSchedule(
                  requested.schedule().withDueWindow(DueInstants.DEFAULT_WINDOW)));
        });
    stack.advanceTo(
        due.atStartOfDay(ZoneOffset.UTC)
            .toInstant()
            .plus(DueInstants.DEFAULT_WINDOW)
            .plusSeconds(60));
    Waits.until(
        "the due-window sample billed",
        PROGRESS_TIMEOUT,
        Duration.ofMillis(200),
        () -> worker.counts().paid() >= paid + sample);
    return Parallel.map(
        range(sample),
        8,
        i ->
            Histories.runs(
                    stack.client(),
                    BillingIds.workflowId(BenchSubscriptions.subscriptionId("v", i)))
                .get(0));
  }

  private List<List<List<HistoryEvent>>> sampleHistories(BenchStack stack, int n) {
    int sample = Math.min(n, options.historySample());
    int step = Math.max(1, n / sample);
    List<Integer> picks = IntStream.range(0, sample).map(i -> i * step).boxed().toList();
    return Parallel.map(
        picks,
        8,
        i ->
            Histories.runs(
                stack.client(), BillingIds.workflowId(BenchSubscriptions.subscriptionId("w", i))));
  }

  private static void requireAll(String what, int done, int n) {
    if (done != n) {
      throw new IllegalStateException(what + ": " + done + " of " + n);
    }
  }

  private static List<Integer> range(int n) {
    return IntStream.range(0, n).boxed().toList();
  }
}
