package dev.billing.bench.crash;

import dev.billing.bench.BenchOptions;
import dev.billing.bench.report.Progress;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import java.util.ArrayList;
import java.util.List;

/** The crash scenario's figures: on stdout as the run ends, and as its section of the report. */
record CrashReport(
    BenchOptions options,
    KillPlan plan,
    List<CrashScenario.KillRecord> kills,
    LedgerAudit.Tally tally,
    ReconciliationSummary repair,
    int killsDuringRepair,
    long chargeRequests,
    int gatewayCharges,
    int goodCardsUnpaid,
    double killsSeconds,
    double daySeconds) {

  /** Violation lines printed in full; the report's data holds all of them. */
  private static final int PRINTED = 50;

  List<List<String>> figures() {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("seed", Long.toString(plan.seed())));
    rows.add(List.of("subscriptions", Integer.toString(tally.subscriptions())));
    rows.add(
        List.of("kills (SIGKILL, each followed by a restart)", Integer.toString(kills.size())));
    rows.add(
        List.of("kills while the reconciliation repair ran", Integer.toString(killsDuringRepair)));
    rows.add(
        List.of(
            "repair run",
            repair.reportId()
                + " "
                + repair.status()
                + ", "
                + repair.counts().subscriptionsChecked()
                + " subscriptions and "
                + repair.counts().chargesCompared()
                + " charges checked, findings "
                + repair.counts().findings()
                + ", "
                + repair.counts().repaired()
                + " repaired, "
                + repair.counts().repairsFailed()
                + " repairs failed"
                + (repair.failedSteps().isEmpty()
                    ? ""
                    : ", failed steps: " + repair.failedSteps())));
    rows.add(List.of("periods", Integer.toString(tally.periods())));
    rows.add(List.of("periods collected (COMPLETED)", Integer.toString(tally.collected())));
    rows.add(
        List.of("periods unpaid (ERROR: declined, in dunning)", Integer.toString(tally.unpaid())));
    rows.add(List.of("good cards not collected", Integer.toString(goodCardsUnpaid)));
    rows.add(List.of("charge requests received by the gateway", Long.toString(chargeRequests)));
    rows.add(
        List.of(
            "charges at the gateway (succeeded)",
            gatewayCharges + " (" + tally.succeededCharges() + ")"));
    rows.add(List.of("**double charges**", Integer.toString(tally.doubleCharges())));
    rows.add(
        List.of(
            "**lost charges** (charge without record, record without charge)",
            Integer.toString(tally.lostCharges())));
    rows.add(List.of("other ledger violations", Integer.toString(tally.otherViolations())));
    rows.add(List.of("time: due instant to last kill", ReportWriter.number(killsSeconds) + " s"));
    rows.add(
        List.of(
            "time: due instant to every period settled and the repair finished",
            ReportWriter.number(daySeconds) + " s"));
    return rows;
  }

  void print() {
    Progress.log("crash: results");
    figures()
        .forEach(
            row -> System.out.println("  " + row.get(0).replace("**", "") + ": " + row.get(1)));
    tally.violations().stream()
        .limit(PRINTED)
        .forEach(line -> System.out.println("  VIOLATION " + line));
    if (tally.violations().size() > PRINTED) {
      System.out.println("  ... " + (tally.violations().size() - PRINTED) + " more in the report");
    }
    System.out.println(
        tally.clean()
            ? "  ledger invariant holds for every subscription"
            : "  LEDGER INVARIANT VIOLATED (by kind: " + tally.byKind() + ")");
  }

  Section section() {
    Section section =
        new Section("crash", "Crash test: the worker killed while it collects a billing day");
    section
        .parameter("seed", plan.seed())
        .parameter("crash-subscriptions", options.crashSubscriptions())
        .parameter("kills", options.kills())
        .parameter("crash-gateway-latency (ms)", options.crashGatewayLatencyMillis())
        .parameter("slots", options.slots());
    section.table("Outcome", List.of("what", "value"), figures());
    List<List<String>> killRows = new ArrayList<>();
    for (CrashScenario.KillRecord k : kills) {
      killRows.add(
          List.of(
              Integer.toString(k.number()),
              Long.toString(k.pid()),
              ReportWriter.number(k.atSeconds()),
              Long.toString(k.chargeCalls()),
              k.repairRunning() ? "yes" : ""));
    }
    section.table(
        "Kills (seconds from the due instant's jump; the gateway's charge requests so far)",
        List.of("kill", "worker pid", "at s", "charge requests", "repair running"),
        killRows);
    if (!tally.violations().isEmpty()) {
      section.table(
          "Ledger violations",
          List.of("subscription: kind and detail"),
          tally.violations().stream().map(List::of).toList());
    }
    section.note(
        "The gateway (the sandbox, on the test server's clock) runs in the harness behind HTTP and"
            + " outlives every kill; the worker reaches it over 127.0.0.1. Each kill is a SIGKILL of the worker"
            + " JVM, followed at once by a new one; each lands once the gateway has received a drawn number"
            + " of charge requests, so every kill falls inside the day's collection. The ledger invariant"
            + " (activities' Ledger) is checked per subscription on every period and receipt in DynamoDB"
            + " against every charge the gateway holds.");
    return section;
  }
}
