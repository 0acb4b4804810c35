package dev.billing.store;

/** A page token that this store did not issue, or that was altered, or belongs to another query. */
public class InvalidPageTokenException extends IllegalArgumentException {
  public InvalidPageTokenException(String message) {
    super(message);
  }
}
