package dev.billing.activities.delivery;

import dev.billing.workflows.activities.DeliverEventResult;

/**
 * What a delivery's result says beyond its outcome, for those that count them. The result's shape
 * is the workflow's and recorded in its histories, so it is read, not extended.
 */
public final class DeliveryOutcomes {
  private DeliveryOutcomes() {}

  /**
   * Whether the delivery was found finished already and this attempt sent nothing: ended by an
   * earlier attempt whose completion was lost, or marked missed ({@code endpoint_disabled}) when
   * planned. Reported {@code DELIVERED} so the workflow ends its lane as it always has; only a 2xx
   * of this attempt carries an HTTP status with that outcome.
   */
  public static boolean alreadyFinished(DeliverEventResult result) {
    return result.outcome() == DeliverEventResult.Outcome.DELIVERED && result.httpStatus() == null;
  }
}
