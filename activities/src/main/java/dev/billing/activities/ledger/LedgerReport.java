package dev.billing.activities.ledger;

import dev.billing.domain.Money;
import java.util.List;
import java.util.Map;

/**
 * What the ledger found for one subscription.
 *
 * @param gatewayNet per currency: what the judged charges moved, less what was refunded of them
 * @param recordedNet per currency: what the judged collections say was collected, less refunds
 */
public record LedgerReport(
    String subscriptionId,
    List<LedgerViolation> violations,
    Map<String, Money> gatewayNet,
    Map<String, Money> recordedNet) {

  public LedgerReport {
    violations = List.copyOf(violations);
    gatewayNet = Map.copyOf(gatewayNet);
    recordedNet = Map.copyOf(recordedNet);
  }

  public boolean balanced() {
    return violations.isEmpty();
  }
}
