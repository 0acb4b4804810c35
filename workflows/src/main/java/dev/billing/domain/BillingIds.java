package dev.billing.domain;

/**
 * Deterministic identifiers for external effects. Derived only from (subscription, cycle, attempt or
 * kind), so every retry of the same effect carries the same id and the receiver deduplicates it.
 */
public final class BillingIds {
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
   * The gateway idempotency key of a charge made by a change rather than by the schedule (an
   * immediate upgrade's prorated difference): the subscription version that records it is unique.
   */
  public static String changeChargeKey(String subscriptionId, long version) {
    return "charge:" + subscriptionId + ":v" + version;
  }

  /** Whether {@code key} is one of {@link #changeChargeKey}'s, which no period's collection waits for. */
  public static boolean isChangeChargeKey(String subscriptionId, String key) {
    return key != null && key.startsWith("charge:" + subscriptionId + ":v");
  }

  /** The gateway idempotency key of one refund: the subscription version that records it is unique. */
  public static String refundKey(String subscriptionId, long cycle, long version) {
    return "refund:" + subscriptionId + ":" + cycle + ":v" + version;
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
   * records are committed, and a PAYMENT_RECEIPT notice sent later (when that mail could not go out)
   * must carry the same id, so the notification log delivers the receipt once. Per transaction, not
   * per cycle: a period collected again after a returned bank debit gets a receipt of its own.
   */
  public static String receiptMessageId(String subscriptionId, long cycle, String transactionId) {
    return messageId(subscriptionId, cycle, "receipt-" + atext(transactionId));
  }

  /** Keeps a gateway's id inside the characters a Message-ID's left part allows (RFC 5322 atext). */
  private static String atext(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (char c : value.toCharArray()) {
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '_' || c == '-';
      out.append(ok ? c : '-');
    }
    return out.toString();
  }
}
