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
   * The {@code changeCustomer} update records new customer details, and a new time zone plans the
   * run's timers again (1.1.0). Asked where a change is applied, before its record.
   */
  static final String CUSTOMER_CHANGE = "customer-change";

  static boolean customerChange() {
    return Workflow.getVersion(CUSTOMER_CHANGE, Workflow.DEFAULT_VERSION, 1) >= 1;
  }
}
