package dev.billing.worker.model;

import dev.billing.activities.ledger.Ledger;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.LedgerReport;
import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link Ledger#check} at rest, with one allowance: a charge whose answer was lost (timeout, then
 * retries and look-ups that found the gateway down) is in the gateway and not yet in the records,
 * while the record of its period says so (ERROR, {@value #OUTCOME_UNKNOWN}: the workflow will ask
 * the gateway about that key before anything else). Such a charge is set aside, and the books
 * without it must balance exactly. The allowance is bounded: a charge still set aside
 * {@link #RESOLUTION_BOUND} of workflow time after it was first seen is a violation (the workflow
 * looks an unknown outcome up at its next retry date, and daily once dunning is used up).
 */
final class LedgerJudge {
  static final String OUTCOME_UNKNOWN = "gateway_unavailable";
  static final Duration RESOLUTION_BOUND = Duration.ofDays(9);

  private final Map<String, Instant> unknownSince = new HashMap<>();

  record Verdict(String subscriptionId, List<LedgerViolation> violations, Set<String> setAside) {}

  Verdict judge(LedgerInput books, List<Period> periods, Instant now) {
    Map<Long, Period> byCycle = periods.stream().collect(Collectors.toMap(Period::cycle, p -> p));
    LedgerReport first = Ledger.check(books);
    Set<String> setAside = first.violations().stream()
        .filter(v -> v.kind() == LedgerViolation.Kind.UNRECORDED_CHARGE && v.cycle() != null)
        .filter(v -> awaitsLookUp(books, byCycle.get(v.cycle()), v.transactionId()))
        .filter(v -> !now.isAfter(unknownSince.computeIfAbsent(v.transactionId(), t -> now).plus(RESOLUTION_BOUND)))
        .map(LedgerViolation::transactionId)
        .collect(Collectors.toSet());
    if (setAside.isEmpty()) {
      return new Verdict(books.subscriptionId(), first.violations(), setAside);
    }
    List<GatewayChargeState> rest = books.charges().stream()
        .filter(c -> !setAside.contains(c.transactionId())).toList();
    LedgerReport second = Ledger.check(new LedgerInput(books.subscriptionId(), rest, books.periods(),
        books.receipts(), books.coverage()));
    return new Verdict(books.subscriptionId(), second.violations(), setAside);
  }

  /** The charge is a period's, and its period is recorded with the outcome of an attempt unknown. */
  private static boolean awaitsLookUp(LedgerInput books, Period period, String transactionId) {
    if (period == null || period.status() != PeriodStatus.ERROR || !OUTCOME_UNKNOWN.equals(period.failureCode())) {
      return false;
    }
    return books.charges().stream().filter(c -> c.transactionId().equals(transactionId))
        .noneMatch(c -> BillingIds.isChangeChargeKey(books.subscriptionId(), c.idempotencyKey()));
  }
}
