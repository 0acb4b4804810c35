package dev.billing.domain.reconciliation;

import java.util.Map;

/**
 * What one check step did; its findings are in the report already.
 *
 * @param examined subscriptions, charges or events looked at
 * @param findings how many of each kind were found (and written)
 * @param repaired findings repaired
 * @param repairsFailed repairs that failed (reported, retried by the next run)
 * @param nextCursor where the next page starts; null when the step is complete
 */
public record CheckResult(
    int examined,
    Map<FindingKind, Integer> findings,
    int repaired,
    int repairsFailed,
    String nextCursor) {

  public CheckResult {
    findings = findings == null ? Map.of() : Map.copyOf(findings);
  }
}
