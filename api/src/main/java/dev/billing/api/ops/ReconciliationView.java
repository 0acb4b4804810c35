package dev.billing.api.ops;

import dev.billing.activities.views.Timestamps;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The head of one reconciliation report. */
public record ReconciliationView(
    String id,
    String workflowId,
    String trigger,
    String status,
    String startedAt,
    String finishedAt,
    String from,
    String to,
    boolean repair,
    int subscriptionsChecked,
    int chargesCompared,
    int eventsCompared,
    int findings,
    Map<String, Integer> findingsByKind,
    int repaired,
    int repairsFailed,
    List<String> failedSteps) {

  public static ReconciliationView of(ReconciliationSummary s) {
    Map<String, Integer> byKind = new TreeMap<>();
    s.counts().findings().forEach((kind, n) -> byKind.put(kind.name(), n));
    return new ReconciliationView(
        s.reportId(),
        s.workflowId(),
        s.trigger(),
        s.status().name(),
        Timestamps.instant(s.startedAt()),
        Timestamps.instant(s.finishedAt()),
        Timestamps.date(s.from()),
        Timestamps.date(s.to()),
        s.repair(),
        s.counts().subscriptionsChecked(),
        s.counts().chargesCompared(),
        s.counts().eventsCompared(),
        s.counts().totalFindings(),
        byKind,
        s.counts().repaired(),
        s.counts().repairsFailed(),
        s.failedSteps());
  }
}
