package dev.billing.workflows;

/** Default task queue; deployments may override it by configuration. */
public final class TaskQueues {
  private TaskQueues() {}

  public static final String BILLING = "billing";
}
