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
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
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
 */
final class ChargesCheck {
  /**
   * How long before a receipt its charge may have been created: a bank debit settles days later.
   */
  private static final java.time.Duration LOOKUP_SLACK = java.time.Duration.ofDays(14);

  static final Duration IN_FLIGHT = Duration.ofMinutes(30);

  private final BillingStore store;
  private final ReconciliationQueries queries;
  private final SubscriptionWorkflowOps workflows;
  private final PaymentGateway gateway;
  private final String provider;
  private final RefundRepair refunds;

  ChargesCheck(
      BillingStore store,
      ReconciliationQueries queries,
      SubscriptionWorkflowOps workflows,
      PaymentGateway gateway,
      String provider) {
    this.store = store;
    this.queries = queries;
    this.workflows = workflows;
    this.gateway = gateway;
    this.provider = provider;
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
              describe(charge)
                  + " names subscription "
                  + charge.subscriptionId()
                  + ", which the records do not know: find its owner (records restored from a backup,"
                  + " another environment's key); refund it only if no subscription of ours owns it",
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
      if (violation.kind() == LedgerViolation.Kind.NET_MISMATCH && report.violations().size() > 1) {
        continue; // the other violations name each difference
      }
      act(violation, charge, account, period, input, log);
    }
  }

  private void act(
      LedgerViolation violation,
      GatewayChargeState charge,
      String account,
      Period period,
      DayCheckInput input,
      FindingLog log) {
    String sub =
        charge != null ? charge.subscriptionId() : period != null ? period.subscriptionId() : null;
    switch (violation.kind()) {
      case UNRECORDED_CHARGE -> {
        if (BillingIds.isChangeChargeKey(charge.subscriptionId(), charge.idempotencyKey())) {
          log.add(
              FindingKind.CHARGE_NOT_RECORDED,
              sub,
              account,
              charge.cycle(),
              charge.transactionId(),
              violation.detail() + changeChargeAdvice(account, charge),
              Repair.NONE);
        } else {
          notRecorded(charge, account, period, input, log);
        }
      }
      case DOUBLE_CHARGE ->
          log.add(
              FindingKind.CHARGE_WITHOUT_PERIOD,
              sub,
              account,
              charge.cycle(),
              charge.transactionId(),
              violation.detail()
                  + "; refund this charge ("
                  + charge.transactionId()
                  + "), not the one the period records",
              Repair.NONE);
      case RECEIPT_MISSING -> receiptExists(charge, account, period, input, log);
      case REFUND_MISMATCH -> refunds.repair(charge, account, period, violation, input, log);
      case COLLECTION_NOT_SETTLED -> {
        if (period != null
            && charge.transactionId().equals(period.transactionId())
            && charge.status() != Status.PENDING) {
          returned(charge, account, input, log);
        } else {
          log.add(
              FindingKind.LEDGER_MISMATCH,
              sub,
              account,
              violation.cycle(),
              violation.transactionId(),
              violation.detail()
                  + "; the workflow is not told (it is not a period's own charge):"
                  + " settle the difference with the customer",
              Repair.NONE);
        }
      }
      case CHARGE_RECORDED_TWICE,
          PERIOD_WITHOUT_CHARGE,
          COLLECTION_WITHOUT_CHARGE,
          AMOUNT_MISMATCH,
          NET_MISMATCH ->
          log.add(
              FindingKind.LEDGER_MISMATCH,
              sub,
              account,
              violation.cycle(),
              violation.transactionId(),
              violation.detail()
                  + "; nothing changed: compare the"
                  + " subscription's history with the gateway's charge",
              Repair.NONE);
    }
  }

  private void receiptExists(
      GatewayChargeState charge,
      String account,
      Period period,
      DayCheckInput input,
      FindingLog log) {
    boolean present =
        queries.receiptsBetween(account, charge.createdAt(), input.asOf()).stream()
            .anyMatch(r -> charge.transactionId().equals(r.transactionId()));
    if (present) {
      return;
    }
    String situation =
        "period "
            + period.cycle()
            + " is collected with "
            + charge.transactionId()
            + " but its receipt is gone";
    Optional<Subscription> record = store.getSubscription(account, charge.subscriptionId());
    if (!input.repair() || record.isEmpty()) {
      log.add(
          FindingKind.RECEIPT_MISSING,
          charge.subscriptionId(),
          account,
          period.cycle(),
          charge.transactionId(),
          situation
              + (input.repair()
                  ? "; no subscription record to write it from"
                  : "; not written (report only)"),
          Repair.NONE);
      return;
    }
    writeReceipt(
        FindingKind.RECEIPT_MISSING, charge, record.get(), period.amount(), situation, log);
  }

  /**
   * What an operator does about a plan change's charge without its receipt: nothing while the
   * subscription's record still names its key pending (its workflow looks it up, then applies the
   * plan or, the subscription having ended, refunds it); otherwise the plan change that made it was
   * lost.
   */
  private String changeChargeAdvice(String account, GatewayChargeState charge) {
    boolean pending =
        store
            .getSubscription(account, charge.subscriptionId())
            .map(s -> s.lifecycle().upgradeCharge())
            .filter(u -> u.idempotencyKey().equals(charge.idempotencyKey()))
            .isPresent();
    return pending
        ? ": the subscription's workflow still waits for this charge's outcome (its key is pending"
            + " on the record) and applies the plan or, if the subscription ended, refunds it; do"
            + " not refund it by hand"
        : ": the plan change that made it was not recorded (its update failed after charging); if"
            + " the subscription's plan did not change, refund this charge";
  }

  private void notRecorded(
      GatewayChargeState charge,
      String account,
      Period period,
      DayCheckInput input,
      FindingLog log) {
    String sub = charge.subscriptionId();
    String situation =
        describe(charge)
            + " succeeded, but period "
            + charge.cycle()
            + " is "
            + (period == null ? "not recorded" : period.status().name());
    if (!input.repair()) {
      log.add(
          FindingKind.CHARGE_NOT_RECORDED,
          sub,
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + " (report only)",
          Repair.NONE);
      return;
    }
    WorkflowView view = workflows.describe(sub);
    if (view.state() == WorkflowView.State.RUNNING) {
      signal(FindingKind.CHARGE_NOT_RECORDED, charge, account, input, situation, log);
      return;
    }
    Optional<Subscription> record = store.getSubscription(account, sub);
    if (record.isPresent() && record.get().status().isTerminal()) {
      writeReceipt(
          FindingKind.CHARGE_NOT_RECORDED,
          charge,
          record.get(),
          charge.amount(),
          situation
              + "; the subscription is cancelled and its workflow ended, so nothing else will"
              + " record it (the period item is left to an operator: only a workflow writes periods)",
          log);
    } else {
      log.add(
          FindingKind.CHARGE_NOT_RECORDED,
          sub,
          account,
          charge.cycle(),
          charge.transactionId(),
          situation
              + "; its workflow is "
              + view.state()
              + ": the drift check restarts it, and the"
              + " restarted run's charge with key "
              + charge.idempotencyKey()
              + " is answered from the gateway's record, then recorded",
          Repair.NONE);
    }
  }

  private void returned(
      GatewayChargeState charge, String account, DayCheckInput input, FindingLog log) {
    String situation =
        describe(charge)
            + " is "
            + charge.status()
            + " at the gateway ("
            + charge.failureCode()
            + "), but period "
            + charge.cycle()
            + " is still collected with it";
    if (!input.repair()) {
      log.add(
          FindingKind.RETURN_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + " (report only)",
          Repair.NONE);
      return;
    }
    if (workflows.describe(charge.subscriptionId()).state() == WorkflowView.State.RUNNING) {
      signal(FindingKind.RETURN_NOT_RECORDED, charge, account, input, situation, log);
      return;
    }
    startEnded(charge, account, input, situation, log);
  }

  /**
   * A return whose subscription has no run (it ended: a bank can return a debit weeks after a
   * cancellation): its workflow is started again from the record to record it, as the webhook does.
   * A subscription that still bills has its missing run restarted by the drift check.
   */
  private void startEnded(
      GatewayChargeState charge,
      String account,
      DayCheckInput input,
      String situation,
      FindingLog log) {
    PaymentEvent event = GatewayOutcomes.event(provider, charge, input.asOf());
    try {
      boolean started = event != null && workflows.startEnded(event);
      log.add(
          FindingKind.RETURN_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          charge.cycle(),
          charge.transactionId(),
          situation
              + (started
                  ? "; the subscription has ended: its workflow was started again from the"
                      + " record to record the return"
                  : "; no running workflow to tell, and no ended subscription to start"),
          started ? Repair.WORKFLOW_RESTARTED : Repair.NONE);
    } catch (RuntimeException e) {
      log.add(
          FindingKind.RETURN_NOT_RECORDED,
          charge.subscriptionId(),
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + "; starting the ended subscription's workflow failed: " + e.getMessage(),
          Repair.FAILED);
    }
  }

  private void signal(
      FindingKind kind,
      GatewayChargeState charge,
      String account,
      DayCheckInput input,
      String situation,
      FindingLog log) {
    PaymentEvent event = GatewayOutcomes.event(provider, charge, input.asOf());
    try {
      if (workflows.received(charge.subscriptionId(), event.eventId())) {
        log.add(
            kind,
            charge.subscriptionId(),
            account,
            charge.cycle(),
            charge.transactionId(),
            situation + "; " + GatewayOutcomes.unchanged(event),
            Repair.NONE);
        return;
      }
      workflows.send(event);
      log.add(
          kind,
          charge.subscriptionId(),
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + "; " + GatewayOutcomes.signalled(event),
          Repair.WORKFLOW_SIGNALLED);
    } catch (RuntimeException e) {
      log.add(
          kind,
          charge.subscriptionId(),
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + "; signalling failed: " + e.getMessage(),
          Repair.FAILED);
    }
  }

  private void writeReceipt(
      FindingKind kind,
      GatewayChargeState charge,
      Subscription record,
      Money amount,
      String situation,
      FindingLog log) {
    // The time the money arrived, as the workflow dates receipts: settlement, else creation.
    Instant processedAt = charge.settledAt() != null ? charge.settledAt() : charge.createdAt();
    Receipt receipt =
        new Receipt(
            record.accountId(),
            record.subscriptionId(),
            charge.cycle(),
            record.sku(),
            record.email(),
            amount,
            processedAt,
            charge.transactionId(),
            record.paymentMethod().mask(),
            null);
    try {
      boolean written = store.createReceipt(receipt);
      log.add(
          kind,
          record.subscriptionId(),
          record.accountId(),
          charge.cycle(),
          charge.transactionId(),
          situation
              + (written
                  ? "; receipt written from the charge (processed " + processedAt + ")"
                  : "; a receipt with this key exists already"),
          written ? Repair.RECEIPT_CREATED : Repair.NONE);
    } catch (RuntimeException e) {
      log.add(
          kind,
          record.subscriptionId(),
          record.accountId(),
          charge.cycle(),
          charge.transactionId(),
          situation + "; writing the receipt failed: " + e.getMessage(),
          Repair.FAILED);
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
          "receipt of "
              + receipt.amount()
              + " processed "
              + receipt.processedAt()
              + " names transaction "
              + receipt.transactionId()
              + ", which the gateway does not know: the customer may hold a receipt for money"
              + " never collected",
          Repair.NONE);
    }
  }

  /** The subscriptions GSI-2 shows paid on the days {@code first..last}; see {@link PaidIndex}. */
  List<DuePayment> paidIndex(LocalDate first, LocalDate last) {
    return PaidIndex.read(queries, first, last);
  }

  private static String describe(GatewayChargeState charge) {
    return "charge "
        + charge.transactionId()
        + " ("
        + charge.amount()
        + ", key "
        + charge.idempotencyKey()
        + ")";
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
