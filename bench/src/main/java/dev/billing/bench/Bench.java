package dev.billing.bench;

import dev.billing.bench.crash.CrashScenario;
import dev.billing.bench.report.Machine;
import dev.billing.bench.report.ReportWriter;
import dev.billing.bench.report.Section;
import dev.billing.bench.scenarios.HotPartitionModel;
import dev.billing.bench.scenarios.PeakScenario;
import dev.billing.bench.scenarios.SleepScenario;
import dev.billing.bench.scenarios.SystemCpu;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code bench/run [--name=value ...]}: runs the scenarios and writes the report. */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println("bench/run [--name=value ...]   (name, default, meaning)");
      BenchOptions.HELP.forEach((name, text) -> System.out.println("  --" + name + "=" + text));
      return;
    }
    BenchOptions options = BenchOptions.parse(args);
    Instant started = Instant.now();
    double loadAtStart = Machine.loadAverage();
    // Before any of the benchmark's processes start: what else keeps this machine busy. (The load
    // average cannot tell: right after another run it still counts that run's threads.)
    SystemCpu idleStart = SystemCpu.read();
    Thread.sleep(3_000);
    double busyBefore = SystemCpu.read().busyCoresSince(idleStart);
    Path logs = options.out().resolve("logs");
    List<Section> sections = new ArrayList<>();
    if (options.scenarios().contains(1) || options.scenarios().contains(2)) {
      sections.addAll(new PeakScenario(options, logs).run());
    }
    if (options.scenarios().contains(3) || options.scenarios().contains(4)) {
      sections.addAll(new SleepScenario(options, logs).run());
    }
    if (options.scenarios().contains(5)) {
      sections.add(HotPartitionModel.section(options));
    }
    boolean ledgerHolds = true;
    if (options.scenarios().contains(BenchOptions.CRASH)) {
      CrashScenario.Result crash = new CrashScenario(options, logs).run();
      sections.add(crash.section());
      ledgerHolds = crash.clean();
    }
    Path report =
        ReportWriter.write(
            new ReportWriter.Run(
                started,
                Instant.now(),
                Machine.describe(),
                Machine.versions(),
                options.asMap(),
                loadAtStart,
                Machine.loadAverage(),
                busyBefore,
                sections),
            options.out());
    System.out.println("report: " + report + " (and .json beside it; latest.md / latest.json)");
    // Embedded servers keep non-daemon threads after close on some versions: end the run
    // explicitly.
    // A ledger violation in the crash scenario is a failed run.
    System.exit(ledgerHolds ? 0 : 1);
  }
}
