package dev.billing.workflows;

/**
 * Why an update's validator refused a change. Clients switch on the failure type, the class name of
 * {@link TransitionNotAllowed} (the API answers 409); the message is for people.
 *
 * <p>Validators throw this plain exception rather than an ApplicationFailure because SDK 1.38
 * reports a validator's ApplicationFailure under its internal wrapper's type, losing ours.
 */
public final class UpdateRejections {
  private UpdateRejections() {}

  /** The change is not allowed in the subscription's current state, e.g. cancelling twice. */
  public static final class TransitionNotAllowed extends RuntimeException {
    public TransitionNotAllowed(String message) {
      super(message);
    }
  }

  public static final String TRANSITION_NOT_ALLOWED = TransitionNotAllowed.class.getName();

  /**
   * Failure type of an update whose charge was declined (manual repayment, an immediate upgrade):
   * the decline is recorded, the money did not move. The API answers 402.
   */
  public static final String PAYMENT_DECLINED = "PaymentDeclined";

  /**
   * Failure type of a request naming a period the subscription does not have. The API answers 404.
   */
  public static final String NO_SUCH_PERIOD = "NoSuchPeriod";

  /**
   * The request's id (the API's Idempotency-Key) was taken on before for another request. Thrown by
   * validators, like {@link TransitionNotAllowed}; the API answers 409 idempotency-key-reused.
   */
  public static final class IdempotencyKeyReused extends RuntimeException {
    public IdempotencyKeyReused(String message) {
      super(message);
    }
  }

  public static final String IDEMPOTENCY_KEY_REUSED = IdempotencyKeyReused.class.getName();

  public static IdempotencyKeyReused idempotencyKeyReused(String requestId) {
    return new IdempotencyKeyReused(
        "request id " + requestId + " was already used for a different request");
  }

  public static TransitionNotAllowed transitionNotAllowed(String message) {
    return new TransitionNotAllowed(message);
  }
}
