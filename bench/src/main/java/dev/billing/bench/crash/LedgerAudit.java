package dev.billing.bench.crash;

import dev.billing.activities.ledger.GatewayCoverage;
import dev.billing.activities.ledger.Ledger;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.LedgerReport;
import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.ledger.LedgerViolation.Kind;
import dev.billing.activities.ledger.RecordedPeriod;
import dev.billing.activities.ledger.RecordedReceipt;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.bench.batch.Parallel;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Receipt;
import dev.billing.store.BillingStore;
import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The ledger invariant ({@link Ledger}) over every subscription of the crash scenario: each one's
 * periods and receipts from the store against every charge the gateway holds for it (complete
 * coverage: the sandbox lists all of them), and the tally the scenario reports.
 */
final class LedgerAudit {
  private static final Set<Kind> DOUBLE = Set.of(Kind.DOUBLE_CHARGE);

  /** Money moved with no record of it, or a record of money that never moved. */
  private static final Set<Kind> LOST =
      Set.of(Kind.UNRECORDED_CHARGE, Kind.COLLECTION_WITHOUT_CHARGE, Kind.PERIOD_WITHOUT_CHARGE);

  private LedgerAudit() {}

  /** One subscription of the scenario. */
  record Books(String accountId, String subscriptionId) {}

  /**
   * What the audit found.
   *
   * @param periods every period recorded for the audited subscriptions
   * @param collected those COMPLETED (or REFUNDED)
   * @param unpaid those ERROR: declined, in dunning
   * @param doubleCharges a second successful charge for a collected period
   * @param lostCharges a successful charge no record claims (also one naming no audited
   *     subscription), or a record of a charge the gateway does not have
   * @param otherViolations any other violation; a totals mismatch only when nothing above explains
   *     it
   * @param violations every violation, one line each with its subscription
   */
  record Tally(
      int subscriptions,
      int periods,
      int collected,
      int unpaid,
      int succeededCharges,
      int doubleCharges,
      int lostCharges,
      int otherViolations,
      Map<Kind, Integer> byKind,
      List<String> violations) {

    boolean clean() {
      return doubleCharges == 0 && lostCharges == 0 && otherViolations == 0;
    }
  }

  /** Reads the books of every subscription and checks each. */
  static Tally audit(
      BillingStore store, List<GatewayChargeState> gatewayCharges, List<Books> books, int threads) {
    Map<String, List<GatewayChargeState>> bySubscription = new HashMap<>();
    gatewayCharges.forEach(
        c ->
            bySubscription
                .computeIfAbsent(String.valueOf(c.subscriptionId()), s -> new ArrayList<>())
                .add(c));
    List<Audited> audited =
        Parallel.map(
            books,
            threads,
            b -> {
              // A SCHEDULED period is the next charge, not one: the audit counts money asked for.
              List<Period> periods =
                  all(page -> store.getPeriods(b.accountId(), b.subscriptionId(), page)).stream()
                      .filter(p -> p.status() != PeriodStatus.SCHEDULED)
                      .toList();
              // Expired receipts still record a payment: read as of the epoch, nothing is filtered
              // out.
              List<Receipt> receipts =
                  all(page -> store.getReceiptsByAccount(b.accountId(), Instant.EPOCH, page))
                      .stream()
                      .filter(r -> b.subscriptionId().equals(r.subscriptionId()))
                      .toList();
              LedgerReport report =
                  Ledger.check(
                      new LedgerInput(
                          b.subscriptionId(),
                          bySubscription.getOrDefault(b.subscriptionId(), List.of()),
                          periods.stream().map(RecordedPeriod::of).toList(),
                          receipts.stream().map(RecordedReceipt::of).toList(),
                          GatewayCoverage.complete()));
              return new Audited(report, periods.stream().map(Period::status).toList());
            });
    Set<String> known = new HashSet<>();
    books.forEach(b -> known.add(b.subscriptionId()));
    List<GatewayChargeState> strangers =
        gatewayCharges.stream()
            .filter(
                c ->
                    c.status() == GatewayChargeState.Status.SUCCEEDED
                        && !known.contains(c.subscriptionId()))
            .toList();
    int succeeded =
        (int)
            gatewayCharges.stream()
                .filter(c -> c.status() == GatewayChargeState.Status.SUCCEEDED)
                .count();
    return tally(audited, strangers, succeeded);
  }

  /** One subscription's report and the statuses of its periods. */
  record Audited(LedgerReport report, List<PeriodStatus> periods) {}

  static Tally tally(
      List<Audited> audited, List<GatewayChargeState> strangers, int succeededCharges) {
    int periods = 0;
    int collected = 0;
    int unpaid = 0;
    int doubles = 0;
    int lost = strangers.size();
    int other = 0;
    Map<Kind, Integer> byKind = new EnumMap<>(Kind.class);
    List<String> lines = new ArrayList<>();
    for (GatewayChargeState c : strangers) {
      lines.add(
          "charge "
              + c.transactionId()
              + " ("
              + c.amount()
              + ", key "
              + c.idempotencyKey()
              + ") names subscription "
              + c.subscriptionId()
              + ", which the scenario never created");
    }
    for (Audited a : audited) {
      periods += a.periods().size();
      collected +=
          (int)
              a.periods().stream()
                  .filter(s -> s == PeriodStatus.COMPLETED || s == PeriodStatus.REFUNDED)
                  .count();
      unpaid += (int) a.periods().stream().filter(s -> s == PeriodStatus.ERROR).count();
      List<LedgerViolation> violations = a.report().violations();
      boolean explained =
          violations.stream().anyMatch(v -> DOUBLE.contains(v.kind()) || LOST.contains(v.kind()));
      for (LedgerViolation v : violations) {
        byKind.merge(v.kind(), 1, Integer::sum);
        lines.add(a.report().subscriptionId() + ": " + v.kind() + " " + v.detail());
        if (DOUBLE.contains(v.kind())) {
          doubles++;
        } else if (LOST.contains(v.kind())) {
          lost++;
        } else if (v.kind() != Kind.NET_MISMATCH || !explained) {
          other++;
        }
      }
    }
    return new Tally(
        audited.size(),
        periods,
        collected,
        unpaid,
        succeededCharges,
        doubles,
        lost,
        other,
        byKind,
        lines);
  }

  private static <T> List<T> all(Function<PageRequest, Page<T>> query) {
    List<T> items = new ArrayList<>();
    String token = null;
    do {
      Page<T> page = query.apply(new PageRequest(token, PageRequest.MAX_LIMIT));
      items.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return items;
  }
}
