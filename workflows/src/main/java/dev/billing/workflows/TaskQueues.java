package dev.billing.workflows;

/** Default task queue; deployments may override it by configuration. */
public final class TaskQueues {
  private TaskQueues() {}

  public static final String BILLING = "billing";

  /**
   * The queue of the payment activities (charge, look-up, refund) of the workflows on {@code
   * billingQueue}. It carries nothing but gateway calls, so its task-queue rate limit bounds the
   * requests the gateway gets. Derived from the workflows' queue, so deployments sharing a
   * namespace under different queues never run each other's charges.
   */
  public static String payments(String billingQueue) {
    return billingQueue + "-payments";
  }

  /**
   * The queue of merchant-event delivery (the {@code deliveries-<subscription>} workflows and their
   * POSTs) beside {@code billingQueue}: a slow or failing endpoint holds up only this queue's
   * pollers, never billing's workflow and activity tasks.
   */
  public static String deliveries(String billingQueue) {
    return billingQueue + "-deliveries";
  }
}
