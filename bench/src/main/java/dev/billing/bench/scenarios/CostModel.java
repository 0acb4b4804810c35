package dev.billing.bench.scenarios;

import dev.billing.bench.BenchOptions;
import dev.billing.bench.dynamo.ConsumedUnits;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.Summary;
import dev.billing.bench.stack.BenchStack;
import dev.billing.bench.temporal.ActionCount;
import dev.billing.bench.temporal.ActionCounter;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Scenario 2: what one monthly happy-path cycle costs, from the peak's billing days. Temporal
 * actions are counted in real histories ({@link ActionCounter}); DynamoDB units come from
 * ReturnConsumedCapacity on every call the worker (or the batch job) made, divided by the cycles
 * billed. DynamoDB Local bills a transactional write at 4 units per KB where AWS bills 2, so writes
 * are also priced from the items' actual sizes by AWS's rules; reads are priced as reported.
 */
final class CostModel {
  private final BenchOptions options;
  private final BenchStack stack;
  private final int n;
  private final List<PeakScenario.Trial> trials;
  private final List<List<List<HistoryEvent>>> histories;
  private final List<List<HistoryEvent>> spreadFirstRuns;

  CostModel(
      BenchOptions options,
      BenchStack stack,
      int n,
      List<PeakScenario.Trial> trials,
      List<List<List<HistoryEvent>>> histories,
      List<List<HistoryEvent>> spreadFirstRuns) {
    this.options = options;
    this.stack = stack;
    this.n = n;
    this.trials = trials;
    this.histories = histories;
    this.spreadFirstRuns = spreadFirstRuns;
  }

  Section section() {
    Section section = new Section("cost", "2. Cost per subscription-month (monthly happy path)");
    section
        .parameter("priceActions", options.priceActions())
        .parameter("priceWrite", options.priceWrite())
        .parameter("priceRead", options.priceRead());

    List<ActionCount> cycles = new ArrayList<>();
    List<ActionCount> firstRuns = new ArrayList<>();
    for (List<List<HistoryEvent>> runs : histories) {
      for (int r = 0; r < runs.size(); r++) {
        List<HistoryEvent> run = runs.get(r);
        if (!dev.billing.bench.temporal.Histories.continuedAsNew(run)) {
          continue; // the run sleeping towards the next cycle
        }
        (r == 0 ? firstRuns : cycles).add(ActionCounter.count(run));
      }
    }
    Summary actions = Summary.of(cycles.stream().map(c -> (double) c.total()).toList());
    section.figure(
        "actionsPerCycle",
        "Temporal actions per billed cycle (runs after the first)",
        "actions",
        actions);
    section.figure(
        "versionMarkersPerCycle",
        "  of which not counted: version markers",
        "markers",
        Summary.of(cycles.stream().map(c -> (double) c.versionMarkers()).toList()));
    section.figure(
        "eventsPerCycle",
        "history events per cycle run",
        "events",
        Summary.of(cycles.stream().map(c -> (double) c.events()).toList()));
    section.figure(
        "actionsFirstRun",
        "actions of the first run (creation + cycle 1)",
        "actions",
        Summary.of(firstRuns.stream().map(c -> (double) c.total()).toList()));
    section.figure(
        "eventsFirstRun",
        "history events of the first run",
        "events",
        Summary.of(firstRuns.stream().map(c -> (double) c.events()).toList()));
    List<ActionCount> spread = spreadFirstRuns.stream().map(ActionCounter::count).toList();
    section.figure(
        "actionsFirstRunSpread",
        "actions of a first run with a due window (PT6H; reminder already due at creation, so one timer fewer)",
        "actions",
        Summary.of(spread.stream().map(c -> (double) c.total()).toList()));
    section.figure(
        "versionMarkersFirstRunSpread",
        "  version markers in it",
        "markers",
        Summary.of(spread.stream().map(c -> (double) c.versionMarkers()).toList()));
    List<List<String>> kinds = new ArrayList<>();
    medianRunKinds(cycles).forEach((kind, count) -> kinds.add(List.of(kind, count.toString())));
    section.table(
        "Actions of a cycle run by kind (median over " + cycles.size() + " runs)",
        List.of("action", "count"),
        kinds);

    // DynamoDB as reported by ReturnConsumedCapacity.
    List<Double> wfWrites = new ArrayList<>();
    List<Double> wfReads = new ArrayList<>();
    List<Double> wfTransactions = new ArrayList<>();
    List<Double> batchWrites = new ArrayList<>();
    List<Double> batchReads = new ArrayList<>();
    List<Double> batchTransactions = new ArrayList<>();
    for (PeakScenario.Trial t : trials) {
      ConsumedUnits workflow = t.workflowCapacity();
      wfWrites.add(workflow.writeUnits() / n);
      wfReads.add(workflow.readUnits() / n);
      wfTransactions.add((double) workflow.calls("TransactWriteItems") / n);
      ConsumedUnits batch = t.batchCapacity();
      batchWrites.add(batch.writeUnits() / n);
      batchReads.add(batch.readUnits() / n);
      batchTransactions.add((double) batch.calls("TransactWriteItems") / n);
    }
    section.figure(
        "workflowTransactionsPerCycle",
        "workflow: DynamoDB transactions per cycle (reminder + charge)",
        "transactions",
        Summary.of(wfTransactions));
    section.figure(
        "workflowWriteUnitsLocal",
        "workflow: write units per cycle as DynamoDB Local reports them",
        "WCU",
        Summary.of(wfWrites));
    section.figure(
        "workflowReadUnits",
        "workflow: read units per cycle (ReturnConsumedCapacity)",
        "RCU",
        Summary.of(wfReads));
    section.figure(
        "batchTransactionsPerCycle",
        "batch: DynamoDB transactions per cycle (reminder + charge)",
        "transactions",
        Summary.of(batchTransactions));
    section.figure(
        "batchWriteUnitsLocal",
        "batch: write units per cycle as DynamoDB Local reports them",
        "WCU",
        Summary.of(batchWrites));
    section.figure(
        "batchReadUnits",
        "batch: read units per cycle (ReturnConsumedCapacity)",
        "RCU",
        Summary.of(batchReads));

    // Writes at AWS's rules, from the items the workflow actually wrote.
    CycleWrites.Model model =
        CycleWrites.read(
            stack.dynamo(),
            stack.tables(),
            BenchSubscriptions.accountId("w", 0),
            BenchSubscriptions.subscriptionId("w", 0));
    section.table(
        "Write units per cycle at AWS's rules (item sizes read back from the store)",
        List.of("write", "items (bytes)", "WRU"),
        model.rows());
    section.figure(
        "writeUnitsAwsReminder",
        "  of which the reminder's transaction",
        "WRU",
        Summary.of(model.units("reminder")));
    section.figure(
        "writeUnitsAwsCharge",
        "  of which the charge's transaction",
        "WRU",
        Summary.of(model.units("charge")));
    Summary awsWrites = Summary.of(model.total());
    section.figure(
        "writeUnitsAws",
        "write request units per cycle at AWS's rules (both paths write the same)",
        "WRU",
        awsWrites);

    List<Double> wfCost = new ArrayList<>();
    List<Double> batchCost = new ArrayList<>();
    double actionsMedian = actions.median();
    for (int i = 0; i < trials.size(); i++) {
      double dynamo = model.total() * options.priceWrite() + wfReads.get(i) * options.priceRead();
      wfCost.add(actionsMedian * options.priceActions() + dynamo);
      batchCost.add(model.total() * options.priceWrite() + batchReads.get(i) * options.priceRead());
    }
    section.figure(
        "workflowCostPerMillion",
        "workflow path: USD per million subscription-months",
        "USD",
        Summary.of(wfCost));
    section.figure(
        "workflowTemporalShare",
        "  of which Temporal Cloud actions",
        "USD",
        Summary.of(actionsMedian * options.priceActions()));
    section.figure(
        "batchCostPerMillion",
        "batch baseline: USD per million subscription-months (DynamoDB only)",
        "USD",
        Summary.of(batchCost));
    section.note(
        "Actions are Temporal Cloud's (docs.temporal.io/cloud/actions): workflow started by a client "
            + "or by continue-as-new (counted in the run that continues), timers started, activities started "
            + "or retried, local activities once per workflow task, side effects, search-attribute upserts "
            + "(not TemporalChangeVersion), signals and updates received. `Workflow.getVersion` markers are "
            + "not in that list and are shown apart. Queries and heartbeats leave no trace in a history.");
    section.note(
        "DynamoDB prices are on-demand list prices per million request units given as parameters "
            + "(defaults: us-east-1 since November 2024). Storage, Temporal's storage, compute and the "
            + "batch system's scheduler and lock table are not included. A cycle is one subscription-month "
            + "for monthly plans.");
    section.note(
        "DynamoDB Local reports a transactional write as 4 units per KB and repeats the "
            + "transaction's total on each table; AWS bills 2 per KB per item "
            + "(TransactWriteItems). Reads as Local reports them follow AWS's rules (0.5 per 4 KB eventual, "
            + "1 consistent), so the cost uses reads as reported and writes at AWS's rules; index writes "
            + "are counted at 1 unit per KB of the projected item (2 when the key changes: delete + put). "
            + "Each transaction also holds the change's merchant events (outbox items, each in the "
            + "EventsByAccount, EventsByType and EventsUndelivered indexes) and the SCHEDULED next period "
            + "the store writes beside every change; the sweep's later removal of an event from "
            + "EventsUndelivered and webhook delivery's own writes are not counted.");
    return section;
  }

  private static Map<String, Integer> medianRunKinds(List<ActionCount> counts) {
    Map<String, List<Double>> byKind = new TreeMap<>();
    counts.forEach(
        c ->
            c.byKind()
                .forEach(
                    (k, v) -> byKind.computeIfAbsent(k, x -> new ArrayList<>()).add((double) v)));
    Map<String, Integer> medians = new TreeMap<>();
    byKind.forEach((k, v) -> medians.put(k, (int) Math.round(Summary.of(v).median())));
    return medians;
  }
}
