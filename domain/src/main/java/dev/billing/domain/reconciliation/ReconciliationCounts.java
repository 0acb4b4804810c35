package dev.billing.domain.reconciliation;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a run looked at and found, summed over its steps.
 *
 * @param subscriptionsChecked subscriptions the due-date indexes listed in the window
 * @param chargesCompared the gateway's charges of the window
 * @param eventsCompared the gateway's events of the window
 * @param findings how many of each kind
 * @param repaired findings repaired (restarted, signalled, receipt created, replayed)
 * @param repairsFailed repairs attempted that failed
 */
public record ReconciliationCounts(
    int subscriptionsChecked,
    int chargesCompared,
    int eventsCompared,
    Map<FindingKind, Integer> findings,
    int repaired,
    int repairsFailed) {

  public static final ReconciliationCounts ZERO = new ReconciliationCounts(0, 0, 0, Map.of(), 0, 0);

  public ReconciliationCounts {
    findings = findings == null ? Map.of() : Map.copyOf(findings);
  }

  public int totalFindings() {
    return findings.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** These counts plus one step's result, credited to the check it ran. */
  public ReconciliationCounts plus(FindingKind.Check check, CheckResult step) {
    Map<FindingKind, Integer> sum = new EnumMap<>(FindingKind.class);
    sum.putAll(findings);
    step.findings().forEach((kind, n) -> sum.merge(kind, n, Integer::sum));
    return new ReconciliationCounts(
        subscriptionsChecked + (check == FindingKind.Check.DRIFT ? step.examined() : 0),
        chargesCompared + (check == FindingKind.Check.PAYMENTS ? step.examined() : 0),
        eventsCompared + (check == FindingKind.Check.WEBHOOKS ? step.examined() : 0),
        sum,
        repaired + step.repaired(),
        repairsFailed + step.repairsFailed());
  }
}
