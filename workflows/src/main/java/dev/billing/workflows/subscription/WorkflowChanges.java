package dev.billing.workflows.subscription;

import io.temporal.workflow.Workflow;

/**
 * The changes to the subscription workflow's logic since the 1.0.0 release, each a {@code
 * Workflow.getVersion} change id: a run that started on older code replays through the marker it
 * never wrote and keeps that code's behaviour. Asked only where the commands differ, never inside a
 * {@code Workflow.await} condition. See docs/operations.md, "Deploy a workflow change safely".
 */
final class WorkflowChanges {
  private WorkflowChanges() {}

  /**
   * An immediate upgrade's charge that succeeds after the subscription ended is recorded and
   * refunded in full, and the ended run waits for the charge's outcome to do so (1.1.0).
   */
  static final String UPGRADE_AFTER_END_REFUNDED = "upgrade-after-end-refunded";

  static boolean upgradeAfterEndRefunded() {
    return Workflow.getVersion(UPGRADE_AFTER_END_REFUNDED, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A manual repayment of an unpaid period whose charge is settling records the amount it charged
   * (price and carried balance, fixed at the period's first attempt), not the plan's price (1.1.0).
   */
  static final String MANUAL_PENDING_AT_CHARGED_AMOUNT = "manual-pending-at-charged-amount";

  static boolean manualPendingAtChargedAmount() {
    return Workflow.getVersion(MANUAL_PENDING_AT_CHARGED_AMOUNT, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * The {@code changeCustomer} update records new customer details, and a new time zone plans the
   * run's timers again (1.1.0). Asked where a change is applied, before its record.
   */
  static final String CUSTOMER_CHANGE = "customer-change";

  static boolean customerChange() {
    return Workflow.getVersion(CUSTOMER_CHANGE, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A refund made at the gateway ({@code CHARGE_REFUNDED}) is recorded on its period instead of
   * being ignored (1.1.0). Asked only when such an event arrives.
   */
  static final String GATEWAY_REFUNDS = "gateway-refunds";

  static boolean gatewayRefunds() {
    return Workflow.getVersion(GATEWAY_REFUNDS, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A card dispute marks its period DISPUTED, and a won dispute collects it again (1.1.0). Asked
   * only when such an event arrives.
   */
  static final String CARD_DISPUTES = "card-disputes";

  static boolean cardDisputes() {
    return Workflow.getVersion(CARD_DISPUTES, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A card dispute of an applied upgrade's (or term switch's) own charge is recorded ({@code
   * PAYMENT_DISPUTED}, and {@code DISPUTE_WON} when won) instead of being ignored (1.1.0). Asked
   * only when a dispute event names such a charge.
   */
  static final String UPGRADE_CHARGE_DISPUTES = "upgrade-charge-disputes";

  static boolean upgradeChargeDisputes() {
    return Workflow.getVersion(UPGRADE_CHARGE_DISPUTES, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * The {@code reactivate} update: an ended run bills again instead of ending, and a cancellation
   * at period end is taken back (1.1.0). Asked where a reactivation is applied, before its record.
   */
  static final String REACTIVATION = "reactivation";

  /**
   * A plan change that switches the term (MONTHLY <-> YEARLY): the schedule is recorded with the
   * new term, now (prorated over both periods) or with the held change's cycle (1.1.0). Asked only
   * where a term switch is applied, before its record.
   */
  static final String TERM_CHANGE = "term-change";

  static boolean termChange() {
    return Workflow.getVersion(TERM_CHANGE, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  static boolean reactivation() {
    return Workflow.getVersion(REACTIVATION, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A trial's first charge that fails makes the subscription INCOMPLETE and is retried on the first
   * payment's schedule, then expires it (INCOMPLETE_EXPIRED), instead of dunning it PAST_DUE
   * (1.1.0). Asked when such a failure is recorded, before the policy is applied. A subscription
   * created INCOMPLETE (by a 1.1.0 API) never ran on 1.0.0 code and needs no marker.
   */
  static final String FIRST_PAYMENT = "first-payment";

  static boolean firstPayment() {
    return Workflow.getVersion(FIRST_PAYMENT, Workflow.DEFAULT_VERSION, 1) >= 1;
  }

  /**
   * A billing-day move keeps the running paid period's real start and paid end ({@code
   * MovedPeriod}), so a later upgrade, term switch or refund of unused days counts that period's
   * days instead of the moved schedule's (1.1.0). Asked where a move of a paid period is recorded:
   * the commands differ only later (whether the running period's status is read, what is charged or
   * refunded), and a run that moved on older code keeps the schedule's dates.
   */
  static final String BILLING_DAY_PERIOD = "billing-day-period";

  static boolean billingDayPeriod() {
    return Workflow.getVersion(BILLING_DAY_PERIOD, Workflow.DEFAULT_VERSION, 1) >= 1;
  }
}
