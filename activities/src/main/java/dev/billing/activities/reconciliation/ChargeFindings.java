package dev.billing.activities.reconciliation;

import dev.billing.activities.ledger.LedgerViolation;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.domain.BillingIds;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.util.Optional;

/**
 * What a gateway charge against the records means, decided from values alone: which response a
 * {@link LedgerViolation} gets, and the words of its finding, the advice to an operator included.
 * {@link ChargesCheck} reads the gateway and the store and {@link ChargeRepairs} acts, so every
 * decision here is tested without a server.
 */
final class ChargeFindings {
  static final String REPORT_ONLY = " (report only)";

  private ChargeFindings() {}

  /** How the check answers one violation of a subscription's charges. */
  enum Response {
    /** Nothing: the net difference, when the other violations name each part of it. */
    NONE,
    /** A plan change's charge without its receipt: reported with {@link #changeChargeAdvice}. */
    ADVISE_ON_CHANGE_CHARGE,
    /** A period's charge the period does not record: its workflow is told, or a receipt written. */
    RECORD_CHARGE,
    /** A second successful charge of a collected period: reported for a refund of that charge. */
    ADVISE_REFUND_OF_SECOND_CHARGE,
    /** A period collected with the charge: its receipt is written again if it is gone. */
    RESTORE_RECEIPT,
    /** More refunded at the gateway than recorded: {@link RefundRepair}. */
    RECORD_REFUND,
    /** The period's own charge came back (returned, failed): its workflow is told. */
    RECORD_RETURN,
    /** Reported with {@link #mismatch}; nothing is changed. */
    REPORT
  }

  /**
   * @param charge the gateway's charge the violation names; null when it names none
   * @param period the period the violation names; null when none is recorded
   * @param violations how many violations the subscription's charges have in all
   */
  static Response response(
      LedgerViolation violation, GatewayChargeState charge, Period period, int violations) {
    return switch (violation.kind()) {
      case UNRECORDED_CHARGE ->
          BillingIds.isChangeChargeKey(charge.subscriptionId(), charge.idempotencyKey())
              ? Response.ADVISE_ON_CHANGE_CHARGE
              : Response.RECORD_CHARGE;
      case DOUBLE_CHARGE -> Response.ADVISE_REFUND_OF_SECOND_CHARGE;
      case RECEIPT_MISSING -> Response.RESTORE_RECEIPT;
      case REFUND_MISMATCH -> Response.RECORD_REFUND;
      // Only a period's own charge is the workflow's to record; a pending one may still settle.
      case COLLECTION_NOT_SETTLED ->
          period != null
                  && charge.transactionId().equals(period.transactionId())
                  && charge.status() != Status.PENDING
              ? Response.RECORD_RETURN
              : Response.REPORT;
      case NET_MISMATCH -> violations > 1 ? Response.NONE : Response.REPORT;
      case CHARGE_RECORDED_TWICE,
          PERIOD_WITHOUT_CHARGE,
          COLLECTION_WITHOUT_CHARGE,
          AMOUNT_MISMATCH ->
          Response.REPORT;
    };
  }

  /**
   * Whether the subscription's record still names this plan change's charge as pending: its
   * workflow has yet to learn the outcome, and will act on it itself.
   */
  static boolean upgradeChargePending(Optional<Subscription> record, GatewayChargeState charge) {
    return record
        .map(s -> s.lifecycle().upgradeCharge())
        .filter(u -> u.idempotencyKey().equals(charge.idempotencyKey()))
        .isPresent();
  }

  /**
   * What an operator does about a plan change's charge without its receipt: nothing while the
   * subscription's record still names its key pending (its workflow looks it up, then applies the
   * plan or, the subscription having ended, refunds it); otherwise the plan change that made it was
   * lost.
   */
  static String changeChargeAdvice(boolean pending) {
    return pending
        ? ": the subscription's workflow still waits for this charge's outcome (its key is pending"
            + " on the record) and applies the plan or, if the subscription ended, refunds it; do"
            + " not refund it by hand"
        : ": the plan change that made it was not recorded (its update failed after charging); if"
            + " the subscription's plan did not change, refund this charge";
  }

  static String secondCharge(LedgerViolation violation, GatewayChargeState charge) {
    return violation.detail()
        + "; refund this charge ("
        + charge.transactionId()
        + "), not the one the period records";
  }

  /** A violation only reported: what the operator compares, or settles. */
  static String mismatch(LedgerViolation violation) {
    if (violation.kind() == LedgerViolation.Kind.COLLECTION_NOT_SETTLED) {
      return violation.detail()
          + "; the workflow is not told (it is not a period's own charge):"
          + " settle the difference with the customer";
    }
    return violation.detail()
        + "; nothing changed: compare the"
        + " subscription's history with the gateway's charge";
  }

  static String unknownSubscription(GatewayChargeState charge) {
    return describe(charge)
        + " names subscription "
        + charge.subscriptionId()
        + ", which the records do not know: find its owner (records restored from a backup,"
        + " another environment's key); refund it only if no subscription of ours owns it";
  }

  static String receiptGone(Period period, GatewayChargeState charge) {
    return "period "
        + period.cycle()
        + " is collected with "
        + charge.transactionId()
        + " but its receipt is gone";
  }

  static String notRecorded(GatewayChargeState charge, Period period) {
    return describe(charge)
        + " succeeded, but period "
        + charge.cycle()
        + " is "
        + (period == null ? "not recorded" : period.status().name());
  }

  /** A charge not recorded whose subscription ended: only this run will record it. */
  static String endedWithoutRecord(String situation) {
    return situation
        + "; the subscription is cancelled and its workflow ended, so nothing else will"
        + " record it (the period item is left to an operator: only a workflow writes periods)";
  }

  /** A charge not recorded whose subscription still bills but has no running workflow. */
  static String awaitsRestart(
      String situation, WorkflowView.State state, GatewayChargeState charge) {
    return situation
        + "; its workflow is "
        + state
        + ": the drift check restarts it, and the"
        + " restarted run's charge with key "
        + charge.idempotencyKey()
        + " is answered from the gateway's record, then recorded";
  }

  static String returned(GatewayChargeState charge) {
    return describe(charge)
        + " is "
        + charge.status()
        + " at the gateway ("
        + charge.failureCode()
        + "), but period "
        + charge.cycle()
        + " is still collected with it";
  }

  static String receiptWithoutCharge(Receipt receipt) {
    return "receipt of "
        + receipt.amount()
        + " processed "
        + receipt.processedAt()
        + " names transaction "
        + receipt.transactionId()
        + ", which the gateway does not know: the customer may hold a receipt for money"
        + " never collected";
  }

  /** The receipt a charge stands for, written from the record as its workflow would write it. */
  static Receipt receipt(Subscription record, GatewayChargeState charge, Money amount) {
    return new Receipt(
        record.accountId(),
        record.subscriptionId(),
        charge.cycle(),
        record.sku(),
        record.email(),
        amount,
        processedAt(charge),
        charge.transactionId(),
        record.paymentMethod().mask(),
        null);
  }

  /** The time the money arrived, as the workflow dates receipts: settlement, else creation. */
  static Instant processedAt(GatewayChargeState charge) {
    return charge.settledAt() != null ? charge.settledAt() : charge.createdAt();
  }

  static String describe(GatewayChargeState charge) {
    return "charge "
        + charge.transactionId()
        + " ("
        + charge.amount()
        + ", key "
        + charge.idempotencyKey()
        + ")";
  }
}
