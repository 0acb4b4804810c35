package dev.billing.api.ops;

import dev.billing.workflows.reconciliation.ReconciliationInput;
import dev.billing.workflows.reconciliation.SubscriptionRepairInput;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * What the API asks of reconciliation: runs on demand and repairs of one subscription. {@link
 * ReconciliationRuns} starts them as Temporal workflows; resource tests use a fake.
 */
public interface Reconciliations {
  /**
   * The API starts at most one repair of a subscription per window: a client retrying a change
   * every few seconds must not start a run each time, nor restart a workflow that keeps failing in
   * a loop. A repair that did not bring the workflow back waits for the next window or an operator.
   */
  Duration REPAIR_WINDOW = Duration.ofMinutes(15);

  /**
   * @param workflowId the run's workflow id; null when a new one is made
   * @param reportId the run's id, which is also its report's
   * @param started false when an earlier request with the same Idempotency-Key started it
   */
  record Started(String workflowId, String reportId, boolean started) {}

  /**
   * @param workflowId the repair's workflow id
   * @param running true when it is running now (just started, or started by another request of this
   *     window); false when this window's repair has already completed and the workflow is gone
   * @param nextWindow how long until another repair may start
   */
  record Repair(String workflowId, boolean running, Duration nextWindow) {}

  /**
   * What an Idempotency-Key remembers of a run over a window, to tell a retried request from
   * another one. The checks are named only when not all three: a request without {@code checks} and
   * one naming all three start the same run.
   */
  static String requestOf(ReconciliationInput input) {
    return "window lookbackDays="
        + input.lookbackDays()
        + " repair="
        + input.repair()
        + (input.checksAll()
            ? ""
            : " checks="
                + input.checks().stream().map(Enum::name).collect(Collectors.joining(",")));
  }

  /**
   * Starts a run over a window of dates. With an idempotency key a retried request finds the run
   * the first one started (running or finished) instead of starting another; the same key with
   * another request is a 409.
   */
  Started start(ReconciliationInput input, String idempotencyKey);

  /** Starts a repair of one subscription for an operator, with the same idempotency. */
  Started start(SubscriptionRepairInput input, String idempotencyKey);

  /**
   * The API's repair of a subscription whose workflow a change found gone: at most one per
   * subscription per {@link #REPAIR_WINDOW}, joined by every request of that window while it runs.
   */
  Repair repair(SubscriptionRepairInput input);
}
