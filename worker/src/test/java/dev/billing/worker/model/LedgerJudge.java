package dev.billing.worker.model;

import dev.billing.activities.ledger.Ledger;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.LedgerReport;
import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.sandbox.SandboxRefund;
import dev.billing.domain.BillingIds;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.store.HistoryEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link Ledger#check} at rest, with allowances for money whose answer was lost, each only while
 * the record says so and each bounded in workflow time; the books without what is set aside must
 * balance exactly.
 *
 * <ul>
 *   <li>A charge in the gateway and not in the records, while the record of its period is ERROR
 *       with {@value #OUTCOME_UNKNOWN}: the workflow asks the gateway about that key at its next
 *       retry date, and daily once dunning is used up. Bound: {@link #CHARGE_RESOLUTION_BOUND}.
 *   <li>An immediate upgrade's charge in the gateway and not in the records, while the record's
 *       history names its key pending: the workflow looks the key up on a timer (minutes, then
 *       hours) and applies the plan with its receipt. Bound: {@link #PENDING_RESOLUTION_BOUND}.
 *   <li>A refund in the gateway that the records lack (no period records its key as made), while
 *       the record's history names its key pending: the workflow sends the same key again on a
 *       timer until the gateway answers, for at most its re-send window of 23 hours. Bound: {@link
 *       #PENDING_RESOLUTION_BOUND}.
 * </ul>
 *
 * <p>A key a reconciliation note names (the workflow gave it up, or the money moved after the
 * subscription ended) is for an operator: never set aside.
 */
final class LedgerJudge {
  static final String OUTCOME_UNKNOWN = "gateway_unavailable";
  static final Duration CHARGE_RESOLUTION_BOUND = Duration.ofDays(9);
  static final Duration PENDING_RESOLUTION_BOUND = Duration.ofDays(2);

  private final Map<String, Instant> unknownSince = new HashMap<>();
  private final Map<String, Instant> pendingSince = new HashMap<>();

  /**
   * What one subscription's books hold besides the ledger input: the gateway's refunds, the
   * history.
   */
  record Evidence(List<Period> periods, List<SandboxRefund> refunds, List<HistoryEntry> history) {}

  record Verdict(
      String subscriptionId,
      List<LedgerViolation> violations,
      Set<String> setAside,
      Set<String> refundsSetAside) {}

  Verdict judge(LedgerInput books, Evidence evidence, Instant now) {
    Map<Long, Period> byCycle =
        evidence.periods().stream().collect(Collectors.toMap(Period::cycle, p -> p));
    LedgerReport first = Ledger.check(books);
    Set<String> setAside =
        first.violations().stream()
            .filter(v -> v.kind() == LedgerViolation.Kind.UNRECORDED_CHARGE && v.cycle() != null)
            .filter(
                v ->
                    awaitsLookUp(books, byCycle.get(v.cycle()), v.transactionId())
                        ? within(unknownSince, v.transactionId(), now, CHARGE_RESOLUTION_BOUND)
                        : upgradePending(books, evidence.history(), v.transactionId())
                            && within(
                                pendingSince, v.transactionId(), now, PENDING_RESOLUTION_BOUND))
            .map(LedgerViolation::transactionId)
            .collect(Collectors.toSet());
    Set<String> mismatched =
        first.violations().stream()
            .filter(
                v -> v.kind() == LedgerViolation.Kind.REFUND_MISMATCH && v.transactionId() != null)
            .map(LedgerViolation::transactionId)
            .collect(Collectors.toSet());
    List<SandboxRefund> pending =
        evidence.refunds().stream()
            .filter(r -> mismatched.contains(r.transactionId()))
            .filter(r -> !recordedMade(evidence.periods(), r.idempotencyKey()))
            .filter(r -> namedPending(evidence.history(), r.idempotencyKey()))
            .filter(r -> within(pendingSince, r.idempotencyKey(), now, PENDING_RESOLUTION_BOUND))
            .toList();
    Set<String> refundsSetAside =
        pending.stream().map(SandboxRefund::idempotencyKey).collect(Collectors.toSet());
    if (setAside.isEmpty() && pending.isEmpty()) {
      return new Verdict(books.subscriptionId(), first.violations(), setAside, refundsSetAside);
    }
    List<GatewayChargeState> rest =
        books.charges().stream()
            .filter(c -> !setAside.contains(c.transactionId()))
            .map(c -> withoutRefunds(c, pending))
            .toList();
    LedgerReport second =
        Ledger.check(
            new LedgerInput(
                books.subscriptionId(), rest, books.periods(), books.receipts(), books.coverage()));
    return new Verdict(books.subscriptionId(), second.violations(), setAside, refundsSetAside);
  }

  private static boolean within(
      Map<String, Instant> since, String key, Instant now, Duration bound) {
    return !now.isAfter(since.computeIfAbsent(key, k -> now).plus(bound));
  }

  /**
   * The charge is a period's, and its period is recorded with the outcome of an attempt unknown.
   */
  private static boolean awaitsLookUp(LedgerInput books, Period period, String transactionId) {
    if (period == null
        || period.status() != PeriodStatus.ERROR
        || !OUTCOME_UNKNOWN.equals(period.failureCode())) {
      return false;
    }
    return books.charges().stream()
        .filter(c -> c.transactionId().equals(transactionId))
        .noneMatch(c -> BillingIds.isChangeChargeKey(books.subscriptionId(), c.idempotencyKey()));
  }

  /** The charge is an immediate upgrade's, and the history names its key pending. */
  private static boolean upgradePending(
      LedgerInput books, List<HistoryEntry> history, String transactionId) {
    return books.charges().stream()
        .filter(c -> c.transactionId().equals(transactionId))
        .anyMatch(
            c ->
                BillingIds.isChangeChargeKey(books.subscriptionId(), c.idempotencyKey())
                    && namedPending(history, c.idempotencyKey()));
  }

  /**
   * A period records the refund with the key as made: the history still names the key pending from
   * before its re-send was answered, but the records no longer lack it.
   */
  private static boolean recordedMade(List<Period> periods, String key) {
    return periods.stream().map(p -> p.refund(key)).anyMatch(r -> r != null && r.made());
  }

  /**
   * The workflow wrote the key down as pending (it sends it again), and did not give it up to an
   * operator (a note of the reconciliation process naming the key).
   */
  private static boolean namedPending(List<HistoryEntry> history, String key) {
    boolean pending = false;
    for (HistoryEntry entry : history) {
      if (entry.detail() == null || !entry.detail().contains(key)) {
        continue;
      }
      if (entry.process() == Process.RECONCILIATION) {
        return false;
      }
      pending |= entry.event() == HistoryEvent.PAYMENT_PENDING;
    }
    return pending;
  }

  private static GatewayChargeState withoutRefunds(
      GatewayChargeState c, List<SandboxRefund> pending) {
    Money aside =
        pending.stream()
            .filter(r -> r.transactionId().equals(c.transactionId()))
            .map(SandboxRefund::amount)
            .reduce(Money.zero(c.amount().currency()), Money::plus);
    if (aside.minor() == 0) {
      return c;
    }
    return new GatewayChargeState(
        c.status(),
        c.idempotencyKey(),
        c.transactionId(),
        c.amount(),
        c.refunded().minus(aside),
        c.subscriptionId(),
        c.cycle(),
        c.createdAt(),
        c.settledAt(),
        c.returnedAt(),
        c.failureCode(),
        c.failureMessage());
  }
}
