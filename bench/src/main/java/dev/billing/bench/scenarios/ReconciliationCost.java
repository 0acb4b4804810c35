package dev.billing.bench.scenarios;

import dev.billing.api.subscriptions.SubscriptionWorkflows;
import dev.billing.bench.BenchOptions;
import dev.billing.bench.batch.Parallel;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.Summary;
import dev.billing.bench.stack.BenchStack;
import dev.billing.bench.stack.WorkerProcess;
import dev.billing.domain.reconciliation.ReconciliationCounts;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.ReconciliationWorkflow;
import io.temporal.client.WorkflowOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/**
 * Scenario 4, on scenario 3's stack: a fixed set is billed on the stack's first day, before the
 * sleepers arrive; at each step of the sleepers, reconciliation runs over the window that holds the
 * fixed set (what it reads must not grow with the sleepers), and the due-date indexes are read for
 * the set's next due date.
 */
final class ReconciliationCost {
  private final BenchOptions options;
  private final BenchStack stack;
  private final WorkerProcess worker;

  /** The fixed set's next due date: the day whose index partitions are read at each step. */
  private final LocalDate nextDue;

  private ReconciliationCost(BenchOptions options, BenchStack stack, LocalDate nextDue) {
    this.options = options;
    this.stack = stack;
    this.worker = stack.worker();
    this.nextDue = nextDue;
  }

  /** One step's figures. */
  record Step(
      int total,
      Summary dueQueryMs,
      Summary dueQueryReads,
      int dueFound,
      int reminderFound,
      Summary runSeconds,
      Summary runReads,
      ReconciliationCounts counts) {}

  /**
   * Creates the fixed set through the workflows and moves the clock until it is billed on {@code
   * billed}.
   */
  static ReconciliationCost billFixedSet(
      BenchOptions options,
      BenchStack stack,
      SubscriptionWorkflows workflows,
      LocalDate today,
      LocalDate billed,
      Instant now)
      throws Exception {
    int fixed = options.reconciliationDue();
    int day = billed.getDayOfMonth();
    Parallel.map(
        IntStream.range(0, fixed).boxed().toList(),
        options.createConcurrency(),
        i -> workflows.create(BenchSubscriptions.requested("r", i, today, day, "UTC", now)));
    stack.advanceTo(billed.atStartOfDay(ZoneOffset.UTC).toInstant().plus(Duration.ofHours(1)));
    Waits.until(
        "the reconciled set billed",
        Duration.ofMinutes(30),
        Duration.ofMillis(200),
        () -> stack.worker().counts().paid() >= fixed);
    return new ReconciliationCost(
        options,
        stack,
        BenchSubscriptions.requested("r", 0, today, day, "UTC", now).schedule().dueDate(2));
  }

  /** Three due-date reads and three reconciliation runs with {@code total} sleepers. */
  Step measure(int total) throws Exception {
    LocalDate reminder = nextDue.minusDays(BenchSubscriptions.REMINDER_DAYS);
    List<Double> ms = new ArrayList<>();
    List<Double> reads = new ArrayList<>();
    int found = 0;
    int reminders = 0;
    for (int i = 0; i < 3; i++) {
      stack.harnessMeter().reset();
      long t0 = System.nanoTime();
      found = readAll(stack.store()::getDuePaymentsByDate, nextDue);
      reminders = readAll(stack.store()::getDueRemindersByDate, reminder);
      ms.add((System.nanoTime() - t0) / 1e6);
      reads.add(stack.harnessMeter().snapshot().readUnits());
    }
    List<Double> runSeconds = new ArrayList<>();
    List<Double> runReads = new ArrayList<>();
    ReconciliationCounts counts = null;
    for (int i = 0; i < 3; i++) {
      worker.resetMeter();
      ReconciliationWorkflow run =
          stack
              .client()
              .newWorkflowStub(
                  ReconciliationWorkflow.class,
                  WorkflowOptions.newBuilder()
                      .setWorkflowId("bench-reconciliation-" + total + "-" + i)
                      .setTaskQueue(TaskQueues.BILLING)
                      .build());
      long t0 = System.nanoTime();
      ReconciliationSummary summary = run.run(new ReconciliationInput(3, false, "bench"));
      runSeconds.add((System.nanoTime() - t0) / 1e9);
      runReads.add(worker.stats().capacity().readUnits());
      counts = summary.counts();
    }
    return new Step(
        total,
        Summary.of(ms),
        Summary.of(reads),
        found,
        reminders,
        Summary.of(runSeconds),
        Summary.of(runReads),
        counts);
  }

  private static <T> int readAll(
      BiFunction<LocalDate, PageRequest, Page<T>> query, LocalDate date) {
    int count = 0;
    String token = null;
    do {
      Page<T> page = query.apply(date, new PageRequest(token, 100));
      count += page.items().size();
      token = page.nextPageToken();
    } while (token != null);
    return count;
  }

  Section section(List<Step> steps) {
    Section section = new Section("reconciliation", "4. Reconciliation cost as the total grows");
    section
        .parameter("billedInWindow", options.reconciliationDue())
        .parameter("lookbackDays", 3)
        .parameter("repair", false);
    List<List<String>> rows = new ArrayList<>();
    for (Step s : steps) {
      rows.add(
          List.of(
              Integer.toString(s.total() + options.reconciliationDue()),
              ReportWriter.number(s.runSeconds().median()),
              ReportWriter.number(s.runReads().median()),
              s.counts().subscriptionsChecked()
                  + " / "
                  + s.counts().chargesCompared()
                  + " / "
                  + s.counts().totalFindings()
                  + (s.counts().findings().isEmpty() ? "" : " " + s.counts().findings()),
              s.dueFound() + " / " + s.reminderFound(),
              ReportWriter.number(s.dueQueryMs().median()),
              ReportWriter.number(s.dueQueryReads().median())));
    }
    section.table(
        "One reconciliation run (3-day window, report only) per step, median of 3 runs; and"
            + " the due-date reads of the set's next due date (GSI-2, GSI-1; all pages of 100)",
        List.of(
            "subscriptions",
            "run s",
            "run read units",
            "checked / charges compared / findings",
            "due found (payments / reminders)",
            "due reads ms",
            "due reads RCU"),
        rows);
    Step first = steps.get(0);
    Step last = steps.get(steps.size() - 1);
    section.figure(
        "runReadsGrowth",
        "reconciliation run read units, largest / smallest table",
        "ratio",
        Summary.ratio(last.runReads(), first.runReads()));
    section.figure(
        "runTimeGrowth",
        "reconciliation run time, largest / smallest table",
        "ratio",
        Summary.ratio(last.runSeconds(), first.runSeconds()));
    section.figure(
        "runReadsAtLargest",
        "reconciliation run read units at the largest table",
        "RCU",
        last.runReads());
    section.figure(
        "runSecondsAtLargest",
        "reconciliation run time at the largest table",
        "s",
        last.runSeconds());
    section.figure(
        "dueReadsGrowth",
        "due-date reads, largest / smallest table",
        "ratio",
        Summary.ratio(last.dueQueryReads(), first.dueQueryReads()));
    section.note(
        "The run is the production ReconciliationWorkflow on the worker,"
            + " report only. Its window holds the "
            + options.reconciliationDue()
            + " subscriptions billed on"
            + " the stack's first day; the sleepers are due later, so what it reads should not grow with them."
            + " Read units are the worker's, from ReturnConsumedCapacity. The benchmark delivers no"
            + " webhooks, so each charge of the window is reported once as an event the webhooks never"
            + " stored: the findings count the fixed set, not the sleepers.");
    return section;
  }
}
