package dev.billing.activities.reconciliation;

import java.time.Instant;

/**
 * A subscription workflow as DescribeWorkflowExecution shows it (the one visibility call the Java
 * test server also answers; list queries it does not).
 *
 * @param state MISSING when no execution has the id
 * @param closeStatus the close status of a CLOSED one ("TERMINATED", "FAILED", ...); null otherwise
 * @param closedAt null unless CLOSED
 * @param billingStatus its BillingStatus search attribute; null when unset or MISSING
 * @param pending what the run waits on, for a diagnosis: e.g. "ChargePaymentMethod attempt 4 (last
 *     failure: Payment gateway unavailable ...)"; "no activity pending" when none
 */
public record WorkflowView(
    State state,
    String runId,
    String closeStatus,
    Instant closedAt,
    String billingStatus,
    String pending) {

  public enum State {
    MISSING,
    RUNNING,
    CLOSED
  }

  public static WorkflowView missing() {
    return new WorkflowView(State.MISSING, null, null, null, null, null);
  }
}
