package dev.billing.activities.ledger;

import dev.billing.activities.ledger.LedgerViolation.Kind;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The ledger invariant of one subscription: every successful charge at the gateway is claimed by
 * exactly one recorded collection, every recorded collection has a charge that succeeded, and the
 * money agrees (charged and refunded, charge by charge and in total). Pure: no I/O, no clock.
 *
 * <p>A recorded collection is a collected (COMPLETED or REFUNDED) period with a transaction, or a
 * receipt whose transaction no period claims: a plan change's charge (the gateway holds it under a
 * {@link BillingIds#isChangeChargeKey change-charge key}), or a receipt of unknown origin, judged
 * like any collection. A receipt of a period's earlier charge that the gateway has since RETURNED
 * is history, not a collection: the period was reopened and collected again with a charge of its
 * own. A plan change's charge refunded (its unused share at cancellation) is recorded on the period
 * it was charged in ({@link RecordedPeriod#otherRefunds()}). A plan change's charge that came back
 * is reversed by a negative receipt of the same transaction: the pair collects nothing.
 */
public final class Ledger {
  private Ledger() {}

  private enum Source {
    PERIOD,
    PLAN_CHANGE,
    RECEIPT
  }

  private record Collection(
      Source source, long cycle, Money amount, Money refunded, String transactionId) {
    String describe() {
      return switch (source) {
        case PERIOD -> "period " + cycle;
        case PLAN_CHANGE -> "the plan change charged in cycle " + cycle;
        case RECEIPT -> "a receipt of cycle " + cycle;
      };
    }
  }

  public static LedgerReport check(LedgerInput books) {
    String sub = books.subscriptionId();
    Map<String, GatewayChargeState> charges = new LinkedHashMap<>();
    books.charges().forEach(c -> charges.put(c.transactionId(), c));
    Map<Long, RecordedPeriod> periods = new TreeMap<>();
    books.periods().forEach(p -> periods.put(p.cycle(), p));
    Set<String> receipted =
        books.receipts().stream().map(RecordedReceipt::transactionId).collect(Collectors.toSet());
    List<LedgerViolation> found = new ArrayList<>();
    List<Collection> collections = collections(sub, books, charges, found);

    Map<String, List<Collection>> claims = new LinkedHashMap<>();
    collections.forEach(
        c -> claims.computeIfAbsent(c.transactionId(), t -> new ArrayList<>()).add(c));
    Map<String, Money> recordedNet = new TreeMap<>();
    for (Map.Entry<String, List<Collection>> claim : claims.entrySet()) {
      String txn = claim.getKey();
      List<Collection> claimants = claim.getValue();
      Collection first = claimants.get(0);
      if (claimants.size() > 1) {
        found.add(
            new LedgerViolation(
                Kind.CHARGE_RECORDED_TWICE,
                first.cycle(),
                txn,
                "charge "
                    + txn
                    + " is recorded as the collection of "
                    + claimants.stream()
                        .map(Collection::describe)
                        .collect(Collectors.joining(" and "))
                    + ": one payment counted "
                    + claimants.size()
                    + " times"));
      }
      GatewayChargeState charge = charges.get(txn);
      if (charge == null
          && !books.coverage().everyCharge()
          && !books.coverage().absent().contains(txn)) {
        continue; // the caller did not ask the gateway about it: not judged
      }
      for (Collection c : claimants) {
        add(recordedNet, c.amount().minus(c.refunded()));
      }
      if (charge == null) {
        found.add(
            new LedgerViolation(
                Kind.COLLECTION_WITHOUT_CHARGE,
                first.cycle(),
                txn,
                first.describe()
                    + " records "
                    + first.amount()
                    + " collected with "
                    + txn
                    + ", which the gateway does not have: money recorded but never collected"));
        continue;
      }
      if (charge.status() != Status.SUCCEEDED) {
        found.add(
            new LedgerViolation(
                Kind.COLLECTION_NOT_SETTLED,
                first.cycle(),
                txn,
                first.describe()
                    + " records "
                    + first.amount()
                    + " collected with "
                    + txn
                    + ", which the gateway holds as "
                    + charge.status()
                    + (charge.failureCode() == null ? "" : " (" + charge.failureCode() + ")")));
        continue;
      }
      compareAmounts(first, charge, found);
      if (first.source() == Source.PERIOD && !receipted.contains(txn)) {
        found.add(
            new LedgerViolation(
                Kind.RECEIPT_MISSING,
                first.cycle(),
                txn,
                "period "
                    + first.cycle()
                    + " is collected with "
                    + txn
                    + " ("
                    + charge.amount()
                    + ") but has no receipt for it"));
      }
    }

    Map<String, Money> gatewayNet = new TreeMap<>();
    for (GatewayChargeState charge : charges.values()) {
      if (charge.status() != Status.SUCCEEDED) {
        continue;
      }
      add(gatewayNet, charge.amount().minus(refunded(charge)));
      if (!claims.containsKey(charge.transactionId())) {
        found.add(unclaimed(sub, charge, periods.get(charge.cycle())));
      }
    }
    for (String currency : union(gatewayNet.keySet(), recordedNet.keySet())) {
      Money atGateway = gatewayNet.getOrDefault(currency, Money.zero(currency));
      Money recorded = recordedNet.getOrDefault(currency, Money.zero(currency));
      if (atGateway.minor() != recorded.minor()) {
        found.add(
            new LedgerViolation(
                Kind.NET_MISMATCH,
                null,
                null,
                "the gateway holds "
                    + atGateway
                    + " net of refunds, the records "
                    + recorded
                    + ": "
                    + atGateway.minus(recorded)
                    + " apart"));
      }
    }
    return new LedgerReport(sub, found, gatewayNet, recordedNet);
  }

  private static List<Collection> collections(
      String sub,
      LedgerInput books,
      Map<String, GatewayChargeState> charges,
      List<LedgerViolation> found) {
    List<Collection> collections = new ArrayList<>();
    for (RecordedPeriod period : books.periods()) {
      if (!period.collected() || period.paidByCredit()) {
        continue;
      }
      if (period.transactionId() == null) {
        found.add(
            new LedgerViolation(
                Kind.PERIOD_WITHOUT_CHARGE,
                period.cycle(),
                null,
                "period "
                    + period.cycle()
                    + " is "
                    + period.status()
                    + " for "
                    + period.amount()
                    + " with no transaction: only a period paid by credit (0.00) has none"));
        continue;
      }
      collections.add(
          new Collection(
              Source.PERIOD,
              period.cycle(),
              period.amount(),
              period.refundedOrZero(),
              period.transactionId()));
    }
    Set<String> periodCharges =
        collections.stream().map(Collection::transactionId).collect(Collectors.toSet());
    Set<String> reversed = reversed(books.receipts());
    Set<String> seen = new java.util.HashSet<>();
    for (RecordedReceipt receipt : books.receipts()) {
      String txn = receipt.transactionId();
      if (periodCharges.contains(txn) || reversed.contains(txn) || !seen.add(txn)) {
        continue;
      }
      GatewayChargeState charge = charges.get(txn);
      Money none = Money.zero(receipt.amount().currency());
      if (charge != null && BillingIds.isChangeChargeKey(sub, charge.idempotencyKey())) {
        collections.add(
            new Collection(
                Source.PLAN_CHANGE,
                receipt.cycle(),
                receipt.amount(),
                refundedElsewhere(books, txn, none),
                txn));
      } else if (charge == null
          || charge.status() == Status.FAILED
          || charge.status() == Status.PENDING) {
        collections.add(
            new Collection(Source.RECEIPT, receipt.cycle(), receipt.amount(), none, txn));
      }
      // Otherwise a period's charge: RETURNED is history; SUCCEEDED but claimed by no period is
      // judged as the charge it is (unrecorded or a second one), the receipt does not collect it.
    }
    return collections;
  }

  /**
   * Transactions whose receipts net to nothing: a receipt and its reversal (a negative receipt of
   * the same transaction, written when the charge came back). The records then claim no money for
   * it; if the gateway still holds it as SUCCEEDED, it is judged as a charge no record claims.
   */
  private static Set<String> reversed(List<RecordedReceipt> receipts) {
    Map<String, Long> net = new LinkedHashMap<>();
    Set<String> withReversal = new java.util.HashSet<>();
    for (RecordedReceipt receipt : receipts) {
      net.merge(receipt.transactionId(), receipt.amount().minor(), Long::sum);
      if (receipt.amount().minor() < 0) {
        withReversal.add(receipt.transactionId());
      }
    }
    return withReversal.stream().filter(txn -> net.get(txn) == 0).collect(Collectors.toSet());
  }

  /** What the periods record as refunded of a charge that is not their own (a plan change's). */
  private static Money refundedElsewhere(LedgerInput books, String txn, Money none) {
    Money total = none;
    for (RecordedPeriod period : books.periods()) {
      Money refunded = period.otherRefunds().get(txn);
      if (refunded != null) {
        total = total.plus(refunded);
      }
    }
    return total;
  }

  private static void compareAmounts(
      Collection c, GatewayChargeState charge, List<LedgerViolation> found) {
    String txn = charge.transactionId();
    if (!charge.amount().equals(c.amount())) {
      found.add(
          new LedgerViolation(
              Kind.AMOUNT_MISMATCH,
              c.cycle(),
              txn,
              c.describe()
                  + " records "
                  + c.amount()
                  + " collected with "
                  + txn
                  + ", the gateway charged "
                  + charge.amount()));
    }
    Money refunded = refunded(charge);
    if (refunded.minor() != c.refunded().minor()
        || !refunded.currency().equals(c.refunded().currency())) {
      found.add(
          new LedgerViolation(
              Kind.REFUND_MISMATCH,
              c.cycle(),
              txn,
              "the gateway refunded "
                  + refunded
                  + " of "
                  + txn
                  + ", "
                  + c.describe()
                  + " records "
                  + c.refunded()
                  + " refunded"));
    }
  }

  private static LedgerViolation unclaimed(
      String sub, GatewayChargeState charge, RecordedPeriod period) {
    String txn = charge.transactionId();
    String what =
        "charge "
            + txn
            + " ("
            + charge.amount()
            + ", key "
            + charge.idempotencyKey()
            + ") succeeded for cycle "
            + charge.cycle();
    if (BillingIds.isChangeChargeKey(sub, charge.idempotencyKey())) {
      return new LedgerViolation(
          Kind.UNRECORDED_CHARGE,
          charge.cycle(),
          txn,
          what + " as a plan change's charge, but no plan change receipt records it");
    }
    if (period != null && period.collected()) {
      String by = period.transactionId() == null ? "credit" : period.transactionId();
      return new LedgerViolation(
          Kind.DOUBLE_CHARGE,
          charge.cycle(),
          txn,
          what
              + ", which is "
              + period.status()
              + " with "
              + by
              + ": a second charge for one period");
    }
    return new LedgerViolation(
        Kind.UNRECORDED_CHARGE,
        charge.cycle(),
        txn,
        what
            + ", which is "
            + (period == null ? "not recorded" : period.status().name())
            + ": no record claims it");
  }

  private static Money refunded(GatewayChargeState charge) {
    return charge.refunded() == null ? Money.zero(charge.amount().currency()) : charge.refunded();
  }

  private static void add(Map<String, Money> totals, Money amount) {
    totals.merge(amount.currency(), amount, Money::plus);
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.TreeSet<>(a);
    all.addAll(b);
    return all;
  }
}
