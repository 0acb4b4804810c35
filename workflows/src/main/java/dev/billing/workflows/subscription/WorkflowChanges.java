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
}
