package dev.billing.domain;

import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Deterministic identifiers for external effects. Derived only from (subscription, cycle, attempt
 * or kind) or from the id of the client request that asked for the effect, never from incidental
 * state such as the subscription's version, so every retry of the same effect carries the same id
 * and the receiver deduplicates it.
 */
public final class BillingIds {
  private static final Pattern CYCLE = Pattern.compile("[0-9]{1,18}");

  private BillingIds() {}

  public static final String WORKFLOW_ID_PREFIX = "subscription-";

  public static String workflowId(String subscriptionId) {
    return WORKFLOW_ID_PREFIX + subscriptionId;
  }

  /** The gateway idempotency key of one collection attempt of one period. */
  public static String chargeKey(String subscriptionId, long cycle, int attempt) {
    return "charge:" + subscriptionId + ":" + cycle + ":" + attempt;
  }

  /**
   * The cycle in a key made by {@link #chargeKey} for this subscription; null for any other key (an
   * upgrade's, another subscription's, one not of ours). Gateway events carry the key in metadata.
   */
  public static Long cycleOfChargeKey(String idempotencyKey, String subscriptionId) {
    if (idempotencyKey == null || subscriptionId == null) {
      return null;
    }
    String prefix = "charge:" + subscriptionId + ":";
    if (!idempotencyKey.startsWith(prefix)) {
      return null;
    }
    String[] rest = idempotencyKey.substring(prefix.length()).split(":");
    return rest.length == 2 && CYCLE.matcher(rest[0]).matches() ? Long.valueOf(rest[0]) : null;
  }

  /**
   * The gateway idempotency key of a charge made by a change rather than by the schedule (an
   * immediate upgrade's prorated difference): derived from the request's own id, so a client's
   * retry of that request (its Idempotency-Key) carries the same key, whatever was written in
   * between.
   */
  public static String changeChargeKey(String subscriptionId, String requestId) {
    return changeChargePrefix(subscriptionId) + requestDigest(requestId);
  }

  /**
   * Whether {@code key} is one of {@link #changeChargeKey}'s, which no period's collection waits
   * for.
   */
  public static boolean isChangeChargeKey(String subscriptionId, String key) {
    return key != null && key.startsWith(changeChargePrefix(subscriptionId));
  }

  private static String changeChargePrefix(String subscriptionId) {
    return "charge:" + subscriptionId + ":req:";
  }

  /**
   * The gateway idempotency key of one refund of one period, derived from the request that asked
   * for it ({@code requestId}; a cancellation's refunds add what they refund to it).
   */
  public static String refundKey(String subscriptionId, long cycle, String requestId) {
    return "refund:" + subscriptionId + ":" + cycle + ":req:" + requestDigest(requestId);
  }

  /**
   * A fixed-length stand-in for a request id inside a gateway key: the client's key may be up to
   * 255 characters (the gateway's own limit for the whole key) and is the client's text, not ours.
   * The first 128 bits of SHA-256, hex: deterministic, so safe in workflow code.
   */
  public static String requestDigest(String requestId) {
    if (requestId == null || requestId.isEmpty()) {
      throw new IllegalArgumentException("a request id is required");
    }
    return HexFormat.of().formatHex(Digests.sha256(requestId), 0, 16);
  }

  /** The id of the receipt message of one charge (a period's charge, or an upgrade's proration). */
  public static String receiptMessageId(Receipt receipt) {
    return receiptMessageId(receipt.subscriptionId(), receipt.cycle(), receipt.transactionId());
  }

  /** The id of one customer notification, e.g. the reminder of cycle 3. */
  public static String messageId(String subscriptionId, long cycle, String kind) {
    return "<" + kind + "." + cycle + "." + subscriptionId + "@billing>";
  }

  /**
   * The id of the receipt email of one successful charge. RecordChange mails it once the charge's
   * records are committed, and a PAYMENT_RECEIPT notice sent later (when that mail could not go
   * out) must carry the same id, so the notification log delivers the receipt once. Per
   * transaction, not per cycle: a period collected again after a returned bank debit gets a receipt
   * of its own.
   */
  public static String receiptMessageId(String subscriptionId, long cycle, String transactionId) {
    return messageId(subscriptionId, cycle, "receipt-" + atext(transactionId));
  }

  /**
   * Keeps a gateway's id inside the characters a Message-ID's left part allows (RFC 5322 atext).
   */
  private static String atext(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (char c : value.toCharArray()) {
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-';
      out.append(ok ? c : '-');
    }
    return out.toString();
  }
}
