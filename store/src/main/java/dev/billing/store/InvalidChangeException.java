package dev.billing.store;

/**
 * A change the store refuses before sending anything: a caller mistake (a creation with a previous
 * state, an update whose version does not increase, a period of another subscription). The same
 * change is refused again however often it is sent, so it must never be retried.
 */
public class InvalidChangeException extends IllegalArgumentException {
  public InvalidChangeException(String message) {
    super(message);
  }

  public InvalidChangeException(String message, Throwable cause) {
    super(message, cause);
  }
}
