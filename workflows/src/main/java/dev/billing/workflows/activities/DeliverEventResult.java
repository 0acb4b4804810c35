package dev.billing.workflows.activities;

/**
 * @param attempt the attempt that ended the delivery
 * @param lagMillis from the event's change to this 2xx, on the activities' clock, for the worker's
 *     delivery-lag metric; null unless delivered now (a redelivery, an earlier attempt's success)
 */
public record DeliverEventResult(Outcome outcome, int attempt, Integer httpStatus, Long lagMillis) {

  public DeliverEventResult(Outcome outcome, int attempt, Integer httpStatus) {
    this(outcome, attempt, httpStatus, null);
  }

  public enum Outcome {
    /** The endpoint answered 2xx. */
    DELIVERED,
    /**
     * Ended without retries: the endpoint answered 410 Gone, its address is not allowed, or it is
     * disabled (its deliveries kept failing).
     */
    FAILED,
    /** The endpoint was deleted: nothing more goes to it. */
    ENDPOINT_DELETED
  }
}
