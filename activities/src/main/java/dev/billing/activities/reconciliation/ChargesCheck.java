package dev.billing.activities.reconciliation;

import dev.billing.activities.ledger.GatewayCoverage;
import dev.billing.activities.ledger.Ledger;
import dev.billing.activities.ledger.LedgerInput;
import dev.billing.activities.ledger.LedgerReport;
import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.ledger.RecordedPeriod;
import dev.billing.activities.ledger.RecordedReceipt;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.BillingStore;
import dev.billing.store.DuePayment;
import dev.billing.store.ReconciliationQueries;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The gateway's charges of one UTC day against the periods and receipts.
 *
 * <p>From the gateway's side, the charges of ours (metadata subscriptionId and cycle; others are
 * counted, not judged) are grouped by subscription and judged by the {@link Ledger} against the
 * periods they name and their receipts. A plan change's charge (an immediate upgrade, which names
 * the paid cycle) is the plan change's collection when its receipt exists, not a second charge of
 * that period. What the ledger finds is acted on:
 *
 * <ul>
 *   <li>a period collected with the charge whose receipt is gone: the receipt is written again (a
 *       conditional put);
 *   <li>a refund the period does not show (made in the gateway's dashboard, its webhook missed):
 *       sent to the workflow as the webhook would have, or its ended workflow started again with it
 *       ({@link RefundRepair});
 *   <li>a second successful charge of a collected period: reported for a refund of that charge;
 *   <li>a period charge the period does not record: the running workflow is sent the success (it
 *       records period and receipt in one transaction, as for a webhook); with no running workflow
 *       and a cancelled record (nothing will record it), the receipt is written from the charge; a
 *       plan change's charge without its receipt is reported;
 *   <li>returned or failed, period still collected with it: the running workflow is sent the
 *       return.
 * </ul>
 *
 * <p>From the records' side, the receipts processed that day of every subscription seen (owners of
 * the day's charges, and subscriptions GSI-2 shows paid that day: their next-cycle partitions read
 * with the LastPaymentDate sort key bounded to the day) must each have a charge; one whose charge
 * the gateway does not know is reported. Charges younger than {@link #IN_FLIGHT} are skipped: their
 * workflow may be recording them right now.
 *
 * <p>This class reads the gateway and the store; what a violation means and the words of its
 * finding are {@link ChargeFindings}' (pure), and the repairs {@link ChargeRepairs}' and {@link
 * RefundRepair}'s.
 */
final class ChargesCheck {
  /**
   * How long before a receipt its charge may have been created: a bank debit settles days later.
   */
  private static final Duration LOOKUP_SLACK = Duration.ofDays(14);

  static final Duration IN_FLIGHT = Duration.ofMinutes(30);

  private final BillingStore store;
  private final ReconciliationQueries queries;
  private final PaymentGateway gateway;
  private final ChargeRepairs repairs;
  private final RefundRepair refunds;

  ChargesCheck(
      BillingStore store,
      ReconciliationQueries queries,
      SubscriptionWorkflowOps workflows,
      PaymentGateway gateway,
      String provider) {
    this.store = store;
    this.queries = queries;
    this.gateway = gateway;
    this.repairs = new ChargeRepairs(store, queries, workflows, provider);
    this.refunds = new RefundRepair(workflows, provider);
  }

  void check(DayCheckInput input, FindingLog log, Runnable heartbeat) {
    check(input, log, heartbeat, paidIndex(input.day(), input.day()));
  }

  /**
   * @param paid the subscriptions GSI-2 shows paid on the days being checked, read once for all of
   *     them ({@link #paidIndex})
   */
  void check(DayCheckInput input, FindingLog log, Runnable heartbeat, List<DuePayment> paid) {
    Instant from = input.day().atStartOfDay(ZoneOffset.UTC).toInstant();
    Instant to = min(from.plus(Duration.ofDays(1)), input.asOf());
    if (!from.isBefore(to)) {
      return;
    }
    Map<String, GatewayChargeState> byTransaction = new LinkedHashMap<>();
    Map<String, List<GatewayChargeState>> bySubscription = new LinkedHashMap<>();
    Map<String, String> seen = new LinkedHashMap<>(); // subscription -> account
    for (GatewayChargeState charge : gateway.listCharges(from, to)) {
      heartbeat.run();
      log.examined();
      byTransaction.put(charge.transactionId(), charge);
      if (charge.subscriptionId() == null
          || charge.cycle() == null
          || charge.createdAt().isAfter(input.asOf().minus(IN_FLIGHT))) {
        continue; // not billing's charge, or too recent to judge
      }
      bySubscription.computeIfAbsent(charge.subscriptionId(), s -> new ArrayList<>()).add(charge);
    }
    for (Map.Entry<String, List<GatewayChargeState>> owned : bySubscription.entrySet()) {
      heartbeat.run();
      Optional<String> account = queries.accountOf(owned.getKey());
      if (account.isEmpty()) {
        for (GatewayChargeState charge : owned.getValue()) {
          log.add(
              FindingKind.CHARGE_WITHOUT_PERIOD,
              charge.subscriptionId(),
              null,
              charge.cycle(),
              charge.transactionId(),
              ChargeFindings.unknownSubscription(charge),
              Repair.NONE);
        }
        continue;
      }
      seen.put(owned.getKey(), account.get());
      judge(owned.getKey(), account.get(), owned.getValue(), input, log);
    }
    for (DuePayment entry : paid) {
      Instant at = entry.lastPaymentAt();
      if (at != null && !at.isBefore(from) && at.isBefore(to)) {
        seen.putIfAbsent(entry.subscriptionId(), entry.accountId());
      }
    }
    for (Map.Entry<String, String> subscription : seen.entrySet()) {
      heartbeat.run();
      receiptsHaveCharges(
          subscription.getKey(), subscription.getValue(), from, to, byTransaction, log);
    }
  }

  /**
   * One subscription's charges of the day against its records, through the {@link Ledger}: the
   * periods the charges name and the receipts of those charges (a plan change's charge is known by
   * its receipt). Each violation becomes a finding, repaired where the run can.
   */
  private void judge(
      String sub,
      String account,
      List<GatewayChargeState> charges,
      DayCheckInput input,
      FindingLog log) {
    Map<Long, Period> periods = new TreeMap<>();
    for (GatewayChargeState charge : charges) {
      if (!periods.containsKey(charge.cycle())) {
        queries.period(account, sub, charge.cycle()).ifPresent(p -> periods.put(p.cycle(), p));
      }
    }
    Instant earliest =
        charges.stream().map(GatewayChargeState::createdAt).min(Instant::compareTo).orElseThrow();
    Set<String> transactions = new HashSet<>();
    charges.forEach(c -> transactions.add(c.transactionId()));
    List<Receipt> receipts =
        queries.receiptsBetween(account, earliest, input.asOf()).stream()
            .filter(r -> r.subscriptionId().equals(sub) && transactions.contains(r.transactionId()))
            .toList();
    LedgerReport report =
        Ledger.check(
            new LedgerInput(
                sub,
                charges,
                periods.values().stream().map(RecordedPeriod::of).toList(),
                receipts.stream().map(RecordedReceipt::of).toList(),
                GatewayCoverage.partial(Set.of())));
    Map<String, GatewayChargeState> byTransaction = new HashMap<>();
    charges.forEach(c -> byTransaction.put(c.transactionId(), c));
    for (LedgerViolation violation : report.violations()) {
      GatewayChargeState charge =
          violation.transactionId() == null ? null : byTransaction.get(violation.transactionId());
      Period period = violation.cycle() == null ? null : periods.get(violation.cycle());
      ChargeFindings.Response response =
          ChargeFindings.response(violation, charge, period, report.violations().size());
      act(response, violation, charge, account, period, input, log);
    }
  }

  private void act(
      ChargeFindings.Response response,
      LedgerViolation violation,
      GatewayChargeState charge,
      String account,
      Period period,
      DayCheckInput input,
      FindingLog log) {
    String sub =
        charge != null ? charge.subscriptionId() : period != null ? period.subscriptionId() : null;
    switch (response) {
      case NONE -> {}
      case ADVISE_ON_CHANGE_CHARGE -> {
        boolean pending =
            ChargeFindings.upgradeChargePending(
                store.getSubscription(account, charge.subscriptionId()), charge);
        log.add(
            FindingKind.CHARGE_NOT_RECORDED,
            sub,
            account,
            charge.cycle(),
            charge.transactionId(),
            violation.detail() + ChargeFindings.changeChargeAdvice(pending),
            Repair.NONE);
      }
      case RECORD_CHARGE -> repairs.recordCharge(charge, account, period, input, log);
      case ADVISE_REFUND_OF_SECOND_CHARGE ->
          log.add(
              FindingKind.CHARGE_WITHOUT_PERIOD,
              sub,
              account,
              charge.cycle(),
              charge.transactionId(),
              ChargeFindings.secondCharge(violation, charge),
              Repair.NONE);
      case RESTORE_RECEIPT -> repairs.restoreReceipt(charge, account, period, input, log);
      case RECORD_REFUND -> refunds.repair(charge, account, period, violation, input, log);
      case RECORD_RETURN -> repairs.recordReturn(charge, account, input, log);
      case REPORT ->
          log.add(
              FindingKind.LEDGER_MISMATCH,
              sub,
              account,
              violation.cycle(),
              violation.transactionId(),
              ChargeFindings.mismatch(violation),
              Repair.NONE);
    }
  }

  private void receiptsHaveCharges(
      String sub,
      String account,
      Instant from,
      Instant to,
      Map<String, GatewayChargeState> charges,
      FindingLog log) {
    for (Receipt receipt : queries.receiptsBetween(account, from, to.minusMillis(1))) {
      if (!receipt.subscriptionId().equals(sub) || charges.containsKey(receipt.transactionId())) {
        continue;
      }
      // Made before the day (a bank debit settling today): ask the gateway by the period's key.
      Optional<Period> period = queries.period(account, sub, receipt.cycle());
      int attempts = period.map(p -> Math.max(1, p.attempts())).orElse(1);
      GatewayChargeState state =
          gateway.lookUp(
              new ChargeQuery(
                  BillingIds.chargeKey(sub, receipt.cycle(), attempts),
                  null,
                  receipt.processedAt().minus(LOOKUP_SLACK)));
      if (state.status() != Status.NOT_FOUND
          && receipt.transactionId().equals(state.transactionId())) {
        continue;
      }
      log.add(
          FindingKind.RECEIPT_WITHOUT_CHARGE,
          sub,
          account,
          receipt.cycle(),
          receipt.transactionId(),
          ChargeFindings.receiptWithoutCharge(receipt),
          Repair.NONE);
    }
  }

  /** The subscriptions GSI-2 shows paid on the days {@code first..last}; see {@link PaidIndex}. */
  List<DuePayment> paidIndex(LocalDate first, LocalDate last) {
    return PaidIndex.read(queries, first, last);
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
