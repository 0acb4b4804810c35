package dev.billing.activities.reconciliation;

import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.ReconciliationReports;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The findings of one check step: logged as they are found (one WARN line each, with the
 * subscription id, for log search), written to the report when the step ends, counted for the
 * workflow and for the metrics.
 */
final class FindingLog {
  private static final Logger LOG = LoggerFactory.getLogger("dev.billing.reconciliation");

  private final String reportId;
  private final Instant asOf;
  private final Consumer<Finding> onFinding;
  private final List<Finding> findings = new ArrayList<>();
  private int examined;

  FindingLog(String reportId, Instant asOf, Consumer<Finding> onFinding) {
    this.reportId = reportId;
    this.asOf = asOf;
    this.onFinding = onFinding;
  }

  void examined() {
    examined++;
  }

  int examinedSoFar() {
    return examined;
  }

  void add(
      FindingKind kind,
      String subscriptionId,
      String accountId,
      Long cycle,
      String reference,
      String detail,
      Repair repair) {
    Finding finding =
        new Finding(kind, subscriptionId, accountId, cycle, reference, detail, repair, asOf);
    findings.add(finding);
    onFinding.accept(finding);
    LOG.warn(
        "reconciliation {}: {} subscription={} cycle={} ref={} repair={}: {}",
        reportId,
        kind,
        subscriptionId,
        cycle,
        reference,
        repair,
        detail);
  }

  List<Finding> findings() {
    return List.copyOf(findings);
  }

  /**
   * Writes the findings to the report and sums them up. Repaired counts what the run changed
   * itself; a signal leaves the effect to the workflow ({@link Repair#WORKFLOW_SIGNALLED}).
   */
  CheckResult finish(ReconciliationReports reports, Instant startedAt, String nextCursor) {
    if (!findings.isEmpty()) {
      reports.addFindings(reportId, startedAt, findings);
    }
    Map<FindingKind, Integer> counts = new EnumMap<>(FindingKind.class);
    int repaired = 0;
    int failed = 0;
    for (Finding f : findings) {
      counts.merge(f.kind(), 1, Integer::sum);
      if (f.repair() == Repair.FAILED) {
        failed++;
      } else if (f.repair() != Repair.NONE && f.repair() != Repair.WORKFLOW_SIGNALLED) {
        repaired++;
      }
    }
    return new CheckResult(examined, counts, repaired, failed, nextCursor);
  }
}
