package dev.billing.activities.reconciliation;

import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.BillingStore;
import dev.billing.store.ReconciliationQueries;
import java.util.Optional;

/**
 * What {@link ChargesCheck} does about a charge the records disagree with, each a finding: the
 * running workflow is sent the gateway's outcome as its webhook would have sent it; an ended one is
 * started again from the record with a return; a receipt only a run can write again (the period
 * collected but its receipt gone, or the subscription cancelled with nothing left to record the
 * charge) is written with a conditional put. Without {@link DayCheckInput#repair()} each is only
 * reported. The words come from {@link ChargeFindings}.
 */
final class ChargeRepairs {
  private final BillingStore store;
  private final ReconciliationQueries queries;
  private final SubscriptionWorkflowOps workflows;
  private final String provider;

  ChargeRepairs(
      BillingStore store,
      ReconciliationQueries queries,
      SubscriptionWorkflowOps workflows,
      String provider) {
    this.store = store;
    this.queries = queries;
    this.workflows = workflows;
    this.provider = provider;
  }

  /** The period is collected with the charge: its receipt is written again if it is gone. */
  void restoreReceipt(
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
    String situation = ChargeFindings.receiptGone(period, charge);
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

  /** A period's successful charge the period does not record. */
  void recordCharge(
      GatewayChargeState charge,
      String account,
      Period period,
      DayCheckInput input,
      FindingLog log) {
    String sub = charge.subscriptionId();
    String situation = ChargeFindings.notRecorded(charge, period);
    if (!input.repair()) {
      log.add(
          FindingKind.CHARGE_NOT_RECORDED,
          sub,
          account,
          charge.cycle(),
          charge.transactionId(),
          situation + ChargeFindings.REPORT_ONLY,
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
          ChargeFindings.endedWithoutRecord(situation),
          log);
    } else {
      log.add(
          FindingKind.CHARGE_NOT_RECORDED,
          sub,
          account,
          charge.cycle(),
          charge.transactionId(),
          ChargeFindings.awaitsRestart(situation, view.state(), charge),
          Repair.NONE);
    }
  }

  /** The period's own charge came back, while the period is still collected with it. */
  void recordReturn(
      GatewayChargeState charge, String account, DayCheckInput input, FindingLog log) {
    String situation = ChargeFindings.returned(charge);
    if (!input.repair()) {
      note(
          log,
          FindingKind.RETURN_NOT_RECORDED,
          charge,
          account,
          situation + ChargeFindings.REPORT_ONLY,
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
      note(
          log,
          FindingKind.RETURN_NOT_RECORDED,
          charge,
          account,
          situation
              + (started
                  ? "; the subscription has ended: its workflow was started again from the"
                      + " record to record the return"
                  : "; no running workflow to tell, and no ended subscription to start"),
          started ? Repair.WORKFLOW_RESTARTED : Repair.NONE);
    } catch (RuntimeException e) {
      note(
          log,
          FindingKind.RETURN_NOT_RECORDED,
          charge,
          account,
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
        note(
            log,
            kind,
            charge,
            account,
            situation + "; " + GatewayOutcomes.unchanged(event),
            Repair.NONE);
        return;
      }
      workflows.send(event);
      note(
          log,
          kind,
          charge,
          account,
          situation + "; " + GatewayOutcomes.signalled(event),
          Repair.WORKFLOW_SIGNALLED);
    } catch (RuntimeException e) {
      note(
          log,
          kind,
          charge,
          account,
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
    Receipt receipt = ChargeFindings.receipt(record, charge, amount);
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
                  ? "; receipt written from the charge (processed " + receipt.processedAt() + ")"
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

  /** One finding about a gateway charge, keyed by its subscription, cycle and transaction. */
  private static void note(
      FindingLog log,
      FindingKind kind,
      GatewayChargeState charge,
      String account,
      String situation,
      Repair repair) {
    log.add(
        kind,
        charge.subscriptionId(),
        account,
        charge.cycle(),
        charge.transactionId(),
        situation,
        repair);
  }
}
