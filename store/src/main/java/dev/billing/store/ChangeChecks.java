package dev.billing.store;

import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;

/**
 * Caller mistakes, rejected before anything is sent ({@link InvalidChangeException}, never
 * retried).
 */
final class ChangeChecks {
  private ChangeChecks() {}

  static void requireCreate(RecordInput change) {
    if (change.previous() != null) {
      throw new InvalidChangeException("a created subscription has no previous state");
    }
    // Version 0 would be "not newer" than anything, and history keys pad a non-negative number.
    if (change.next().version() < 1) {
      throw new InvalidChangeException("a created subscription starts at version 1 or higher");
    }
    requireParts(change);
  }

  static void requireUpdate(RecordInput change) {
    Subscription previous = change.previous();
    Subscription next = change.next();
    if (previous == null) {
      throw new InvalidChangeException("an update needs the previous state");
    }
    if (!previous.accountId().equals(next.accountId())
        || !previous.subscriptionId().equals(next.subscriptionId())) {
      throw new InvalidChangeException("previous and next must be the same subscription");
    }
    if (next.version() <= previous.version()) {
      throw new InvalidChangeException(
          "next version "
              + next.version()
              + " must be higher than previous version "
              + previous.version());
    }
    requireParts(change);
  }

  private static void requireParts(RecordInput change) {
    Subscription next = change.next();
    try {
      Keys.requireId("accountId", next.accountId());
      Keys.requireId("subscriptionId", next.subscriptionId());
    } catch (IllegalArgumentException e) {
      throw new InvalidChangeException(e.getMessage(), e);
    }
    if (change.period() != null
        && !(change.period().accountId().equals(next.accountId())
            && change.period().subscriptionId().equals(next.subscriptionId()))) {
      throw new InvalidChangeException("the period belongs to another subscription");
    }
    if (change.receipt() != null
        && !(change.receipt().accountId().equals(next.accountId())
            && change.receipt().subscriptionId().equals(next.subscriptionId()))) {
      throw new InvalidChangeException("the receipt belongs to another subscription");
    }
  }
}
