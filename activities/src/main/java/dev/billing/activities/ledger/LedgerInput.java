package dev.billing.activities.ledger;

import dev.billing.activities.payments.GatewayChargeState;
import java.util.List;
import java.util.Objects;

/**
 * One subscription's books: what the gateway holds and what the records hold. Plain records, no
 * Temporal or DynamoDB types, so a unit test, the benchmark and reconciliation feed it alike.
 *
 * @param charges the gateway's charges of this subscription (metadata subscriptionId); NOT_FOUND
 *     answers carry no transaction and are left out (say what is absent through {@code coverage})
 * @param periods the subscription's periods (every one, or those the charges name)
 * @param receipts its receipts, expired ones included: they still record a payment
 */
public record LedgerInput(
    String subscriptionId,
    List<GatewayChargeState> charges,
    List<RecordedPeriod> periods,
    List<RecordedReceipt> receipts,
    GatewayCoverage coverage) {

  public LedgerInput {
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(coverage, "coverage");
    charges =
        charges.stream().filter(c -> c.status() != GatewayChargeState.Status.NOT_FOUND).toList();
    periods = List.copyOf(periods);
    receipts = List.copyOf(receipts);
    for (GatewayChargeState charge : charges) {
      if (!subscriptionId.equals(charge.subscriptionId())) {
        throw new IllegalArgumentException(
            "charge "
                + charge.transactionId()
                + " names subscription "
                + charge.subscriptionId()
                + ", not "
                + subscriptionId);
      }
    }
  }
}
