package dev.billing.store;

import java.time.Instant;

/**
 * Key shapes of both tables (the seeds' ACC#/SUB#/REC# scheme plus our PER# periods and MSG# log).
 */
final class Keys {
  static final String PK = "PK";
  static final String SK = "SK";
  static final String TYPE = "Type";
  static final String GSI_REMINDERS = "GSI-1";
  static final String GSI_PAYMENTS = "GSI-2";

  private Keys() {}

  static String account(String accountId) {
    return "ACC#" + requireId("accountId", accountId);
  }

  /**
   * The begins_with prefix of one subscription: the trailing '#' keeps "s-1" from matching "s-10".
   */
  static String subscriptionPrefix(String subscriptionId) {
    return "SUB#" + requireId("subscriptionId", subscriptionId) + "#";
  }

  static String subscription(String subscriptionId, String sku) {
    return subscriptionPrefix(subscriptionId) + "SKU#" + sku;
  }

  /** Starts with the processing time so that a reverse query lists the newest receipt first. */
  static String receipt(Instant processedAt, String sku, String subscriptionId, long cycle) {
    return "REC#"
        + Timestamps.format(processedAt)
        + "#SKU#"
        + sku
        + "#"
        + requireId("subscriptionId", subscriptionId)
        + "#"
        + cycle;
  }

  static String periodPrefix(String subscriptionId) {
    return "PER#" + requireId("subscriptionId", subscriptionId) + "#";
  }

  /** Zero-padded so that string order is cycle order. */
  static String period(String subscriptionId, long cycle) {
    return periodPrefix(subscriptionId) + String.format("%08d", cycle);
  }

  static String messagePrefix(String subscriptionId) {
    return "MSG#" + requireId("subscriptionId", subscriptionId) + "#";
  }

  /**
   * A customer message of the notification log; the message id is unique, the prefix groups them.
   */
  static String message(String subscriptionId, String messageId) {
    if (messageId == null || messageId.isEmpty()) {
      throw new IllegalArgumentException("messageId must be non-empty");
    }
    return messagePrefix(subscriptionId) + messageId;
  }

  static String history(String subscriptionId) {
    return "SUB#" + requireId("subscriptionId", subscriptionId);
  }

  /** Time first, then the version, zero-padded: oldest first, and never two entries per version. */
  static String historyEntry(Instant at, long version) {
    return Timestamps.format(at) + "#" + String.format("%012d", version);
  }

  static Instant historyTime(String historySk) {
    return Timestamps.parse(historySk.substring(0, historySk.indexOf('#')));
  }

  /**
   * Ids become key prefixes that begins_with queries rely on: a '#' inside one would let "SUB#a#"
   * match the items of a subscription called "a#b".
   */
  static String requireId(String what, String id) {
    if (id == null || id.isEmpty() || id.indexOf('#') >= 0) {
      throw new IllegalArgumentException(
          what + " must be non-empty and must not contain '#': " + id);
    }
    return id;
  }
}
