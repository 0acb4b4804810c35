package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.GatewayEvent;
import dev.billing.domain.Digests;

/**
 * The sandbox's ids: deterministic, so tests can assert them. Each is a prefix and 24 hex digits of
 * a SHA-256 over the idempotency key, for the first charge (or refund) made with the key; over the
 * key, a NUL and the sequence for those made after the gateway forgot the key and it was reused. A
 * key never holds a NUL (an HTTP header cannot carry one), so no two charges share an id.
 */
public final class SandboxIds {
  private SandboxIds() {}

  private static final String TRANSACTION_PREFIX = "ch_sb_";
  private static final String REFUND_PREFIX = "re_sb_";
  private static final String EVENT_PREFIX = "evt_sb_";

  /** "ch_sb_…" of the {@code sequence}-th charge made with the key (from 1). */
  public static String transactionId(String idempotencyKey, int sequence) {
    return id(TRANSACTION_PREFIX, idempotencyKey, sequence);
  }

  /** "re_sb_…" of the {@code sequence}-th refund made with the key (from 1). */
  public static String refundId(String idempotencyKey, int sequence) {
    return id(REFUND_PREFIX, idempotencyKey, sequence);
  }

  /** "evt_sb_…" over "key|type": one id per charge (or refund) and type. */
  public static String eventId(String idempotencyKey, GatewayEvent.Type type, int sequence) {
    return id(EVENT_PREFIX, idempotencyKey + "|" + type.wireName(), sequence);
  }

  /**
   * The sandbox's own key for the {@code n}-th refund made of a charge in its dashboard (no caller
   * sent one): never a billing key, which starts with "refund:".
   */
  public static String dashboardRefundKey(String transactionId, long n) {
    return DASHBOARD_PREFIX + transactionId + ":" + n;
  }

  /** Made in the dashboard, not by a caller's request. */
  static boolean isDashboard(SandboxRefund refund) {
    return refund.idempotencyKey().startsWith(DASHBOARD_PREFIX);
  }

  private static final String DASHBOARD_PREFIX = "dashboard:";

  private static String id(String prefix, String key, int sequence) {
    if (sequence < 1) {
      throw new IllegalArgumentException("sequences start at 1");
    }
    String seed = sequence == 1 ? key : key + '\u0000' + sequence;
    return prefix + Digests.sha256Hex(seed).substring(0, 24);
  }
}
