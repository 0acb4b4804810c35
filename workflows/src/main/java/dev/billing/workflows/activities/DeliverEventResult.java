package dev.billing.workflows.activities;

/**
 * @param attempt the attempt that ended the delivery
 */
public record DeliverEventResult(Outcome outcome, int attempt, Integer httpStatus) {

  public enum Outcome {
    /** The endpoint answered 2xx. */
    DELIVERED,
    /** Ended without retries: the endpoint answered 410 Gone, or its address is not allowed. */
    FAILED,
    /** The endpoint was deleted: nothing more goes to it. */
    ENDPOINT_DELETED
  }
}
