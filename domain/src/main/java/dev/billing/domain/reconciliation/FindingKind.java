package dev.billing.domain.reconciliation;

/** What a reconciliation run can find, grouped by the check that finds it. */
public enum FindingKind {
  /**
   * The record is active (ACTIVE, PAST_DUE, PAUSED, TRIALING, INCOMPLETE) but there is no workflow
   * for it.
   */
  WORKFLOW_MISSING(Check.DRIFT),
  /** The record is active but its workflow has ended (terminated, failed, timed out, completed). */
  WORKFLOW_CLOSED(Check.DRIFT),
  /** The workflow runs, but its BillingStatus search attribute disagrees with the record. */
  STATUS_MISMATCH(Check.DRIFT),
  /** Its payment date has passed (plus the grace period) and the period is not settled. */
  PAYMENT_OVERDUE(Check.DRIFT),
  /** The gateway's charge succeeded, but its period is not recorded as collected with it. */
  CHARGE_NOT_RECORDED(Check.PAYMENTS),
  /** The period is collected with this charge, but its receipt is gone. */
  RECEIPT_MISSING(Check.PAYMENTS),
  /**
   * A charge of ours that belongs to no collection: unknown subscription, or a second charge of a
   * collected period. A plan change's charge with its receipt is never one.
   */
  CHARGE_WITHOUT_PERIOD(Check.PAYMENTS),
  /** A receipt whose transaction the gateway does not know. */
  RECEIPT_WITHOUT_CHARGE(Check.PAYMENTS),
  /** The gateway refunded more of a charge than the period records. */
  REFUND_NOT_RECORDED(Check.PAYMENTS),
  /** The gateway returned (or failed) a charge that the period still records as collected. */
  RETURN_NOT_RECORDED(Check.PAYMENTS),
  /**
   * Charges and records disagree in a way no kind above names: an amount, one charge recorded for
   * two collections, a collected period without a charge, a plan change's charge that did not
   * settle.
   */
  LEDGER_MISMATCH(Check.PAYMENTS),
  /** A gateway event that never arrived as a webhook. */
  WEBHOOK_MISSED(Check.WEBHOOKS);

  /** The three checks of a run. */
  public enum Check {
    DRIFT,
    PAYMENTS,
    WEBHOOKS
  }

  private final Check check;

  FindingKind(Check check) {
    this.check = check;
  }

  public Check check() {
    return check;
  }
}
