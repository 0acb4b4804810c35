package dev.billing.bench.scenarios;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.billing.bench.BenchOptions;
import dev.billing.bench.report.CpuProfile;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.bench.report.Summary;
import dev.billing.bench.scenarios.PeakScenario.Trial;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Scenario 1's section of the report: the figures, the trials, and where the time goes. */
final class PeakSection {
  private PeakSection() {}

  static Section of(
      BenchOptions options,
      int n,
      double createSeconds,
      List<Trial> warmups,
      List<Trial> trials,
      List<List<List<HistoryEvent>>> histories) {
    Section section = new Section("peak", "1. Billing-day peak");
    section
        .parameter("subscriptions", n)
        .parameter("warmup", warmups.size())
        .parameter("trials", trials.size())
        .parameter("slots", options.slots())
        .parameter("cache", options.cacheSize())
        .parameter("gatewayLatencyMs", options.gatewayLatencyMillis());
    Summary workflow = Summary.of(trials.stream().map(t -> n / t.workflowSeconds()).toList());
    Summary batch = Summary.of(trials.stream().map(t -> n / t.batchSeconds()).toList());
    Summary ceiling = Summary.of(trials.stream().map(t -> n / t.ceilingSeconds()).toList());
    section.figure(
        "workflowCyclesPerSecond",
        "workflow path (timers -> charge -> record)",
        "cycles/s",
        workflow);
    section.figure(
        "batchCyclesPerSecond",
        "batch baseline (GSI-2 -> read -> charge -> record)",
        "cycles/s",
        batch);
    section.figure(
        "ceilingCyclesPerSecond",
        "store ceiling (the charge's transaction alone)",
        "cycles/s",
        ceiling);
    section.figure(
        "workflowOverBatch",
        "workflow / batch (same trial)",
        "ratio",
        Summary.ratio(workflow, batch));
    section.figure(
        "workflowOverCeiling",
        "workflow / ceiling (same trial)",
        "ratio",
        Summary.ratio(workflow, ceiling));
    section.figure(
        "batchOverCeiling", "batch / ceiling (same trial)", "ratio", Summary.ratio(batch, ceiling));
    section.figure(
        "workflowSeconds",
        "workflow path: due instant -> last period COMPLETED",
        "s",
        Summary.of(trials.stream().map(Trial::workflowSeconds).toList()));
    section.figure(
        "workerCpuPerThousand",
        "worker CPU per 1,000 cycles (workflow path)",
        "CPU s",
        Summary.of(trials.stream().map(t -> t.workerCpuSeconds() * 1000 / n).toList()));
    section.figure(
        "serversCpuPerThousand",
        "test server + DynamoDB Local CPU per 1,000 cycles (workflow path)",
        "CPU s",
        Summary.of(trials.stream().map(t -> t.harnessCpuSeconds() * 1000 / n).toList()));
    section.figure(
        "batchCpuPerThousand",
        "batch job + gateway + DynamoDB Local CPU per 1,000 cycles (batch path)",
        "CPU s",
        Summary.of(trials.stream().map(t -> t.batchCpuSeconds() * 1000 / n).toList()));
    section.figure(
        "machineBusyCores",
        "whole machine busy during the workflow peak (all processes)",
        "cores",
        Summary.of(trials.stream().map(Trial::machineBusyCores).toList()));
    section.figure(
        "creationRate",
        "setup: workflow creations through the client (update-with-start)",
        "subscriptions/s",
        Summary.of(n / createSeconds));

    List<List<String>> verified = new ArrayList<>();
    for (Trial t : concat(warmups, trials)) {
      String cycle = t.cycle() + (warmups.contains(t) ? " (warm-up, not summarised)" : "");
      verified.add(
          List.of(
              cycle,
              t.workflowVerified() + "/" + n,
              t.batchVerified() + "/" + n,
              ReportWriter.number(t.workflowSeconds()),
              ReportWriter.number(t.batchSeconds()),
              ReportWriter.number(t.ceilingSeconds())));
    }
    section.table(
        "Trials (one billing day each): periods read back COMPLETED with a transaction id, and seconds",
        List.of(
            "cycle", "workflow verified", "batch verified", "workflow s", "batch s", "ceiling s"),
        verified);

    // Where the time goes: per-cycle timelines from the histories, CPU by thread group.
    Map<String, List<Double>> segments = new LinkedHashMap<>();
    CycleTimeline.SEGMENTS.forEach(s -> segments.put(s, new ArrayList<>()));
    for (List<List<HistoryEvent>> runs : histories) {
      // A run bills one cycle (the first also creates): the warm-up days' runs are left out.
      for (List<HistoryEvent> run :
          runs.subList(Math.min(warmups.size(), runs.size()), runs.size())) {
        CycleTimeline.of(run).forEach((segment, ms) -> segments.get(segment).add(ms));
      }
    }
    List<List<String>> timeline = new ArrayList<>();
    segments.forEach(
        (segment, values) -> {
          if (!values.isEmpty()) {
            Summary s = Summary.of(values);
            timeline.add(
                List.of(
                    segment,
                    ReportWriter.number(Summary.percentile(values, 50)),
                    ReportWriter.number(Summary.percentile(values, 90)),
                    ReportWriter.number(s.max())));
          }
        });
    section.table(
        "Where a cycle's time goes during the peak (sampled runs, ms; queueing dominates when the slots are busy)",
        List.of("segment", "p50 ms", "p90 ms", "max ms"),
        timeline);
    Trial last = trials.get(trials.size() - 1);
    section.table(
        "CPU by thread group during the last trial's workflow peak, and during its batch run (CPU s)",
        List.of("process", "thread group", "CPU s"),
        cpuRows(last));
    section.table(
        "Profile: where the CPU goes, by component (JFR execution samples every "
            + CpuProfile.PERIOD_MS
            + " ms, all measured trials; an embedded server owns every sample with its"
            + " frames, any other sample counts for the innermost frame outside the JDK)",
        List.of(
            "component",
            "worker (workflow peak)",
            "test server + DynamoDB Local (workflow peak)",
            "batch run (batch job + DynamoDB Local)"),
        profileRows(trials));
    ArrayNode raw = section.data().putArray("trials");
    for (Trial t : trials) {
      var node = raw.addObject();
      node.put("cycle", t.cycle());
      node.put("workflowSeconds", t.workflowSeconds());
      node.put("batchSeconds", t.batchSeconds());
      node.put("ceilingSeconds", t.ceilingSeconds());
      node.put("workflowVerified", t.workflowVerified());
      node.put("batchVerified", t.batchVerified());
      node.put("workerCpuSeconds", t.workerCpuSeconds());
      node.put("serversCpuSeconds", t.harnessCpuSeconds());
      node.put("machineBusyCores", t.machineBusyCores());
      node.putPOJO("workerProfileSamples", t.workerProfile());
      node.putPOJO("serversProfileSamples", t.harnessProfile());
      node.putPOJO("batchProfileSamples", t.batchProfile());
    }
    return section;
  }

  /** Each component's share of each process's samples, largest overall first. */
  static List<List<String>> profileRows(List<Trial> trials) {
    List<Map<String, Long>> columns =
        List.of(
            CpuProfile.merge(trials.stream().map(Trial::workerProfile).toList()),
            CpuProfile.merge(trials.stream().map(Trial::harnessProfile).toList()),
            CpuProfile.merge(trials.stream().map(Trial::batchProfile).toList()));
    Map<String, Long> overall = CpuProfile.merge(columns);
    List<Long> totals =
        columns.stream().map(c -> c.values().stream().mapToLong(Long::longValue).sum()).toList();
    List<List<String>> rows = new ArrayList<>();
    overall
        .keySet()
        .forEach(
            component -> {
              List<String> row = new ArrayList<>(List.of(component));
              for (int i = 0; i < columns.size(); i++) {
                long samples = columns.get(i).getOrDefault(component, 0L);
                row.add(
                    samples == 0
                        ? ""
                        : String.format("%.1f %%", 100.0 * samples / Math.max(1, totals.get(i))));
              }
              rows.add(row);
            });
    List<String> total = new ArrayList<>(List.of("samples"));
    totals.forEach(t -> total.add(Long.toString(t)));
    rows.add(total);
    return rows;
  }

  private static List<List<String>> cpuRows(Trial trial) {
    List<List<String>> rows = new ArrayList<>();
    trial
        .workerCpu()
        .forEach(
            (group, nanos) ->
                rows.add(List.of("worker", "`" + group + "`", ReportWriter.number(nanos / 1e9))));
    trial
        .harnessCpu()
        .forEach(
            (group, nanos) ->
                rows.add(
                    List.of(
                        "test server + DynamoDB Local",
                        "`" + group + "`",
                        ReportWriter.number(nanos / 1e9))));
    trial
        .batchCpu()
        .forEach(
            (group, nanos) ->
                rows.add(
                    List.of(
                        "batch run (its `bench-pool` threads + DynamoDB Local + the clock's server)",
                        "`" + group + "`",
                        ReportWriter.number(nanos / 1e9))));
    return rows;
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }
}
