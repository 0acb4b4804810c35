package dev.billing.store;

/** A write carried a version that is not newer than the stored one, and is not a retry of it. */
public class StaleWriteException extends RuntimeException {
  public StaleWriteException(String message) {
    super(message);
  }
}
