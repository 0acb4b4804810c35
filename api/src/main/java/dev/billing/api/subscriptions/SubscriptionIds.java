package dev.billing.api.subscriptions;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Subscription ids. With an Idempotency-Key the id is a pure function of (account, key), so a
 * retried request lands on the same workflow id and Temporal refuses to start a second one.
 */
public final class SubscriptionIds {
  private SubscriptionIds() {}

  public static final String PREFIX = "sub_";

  public static String fromIdempotencyKey(String accountId, String idempotencyKey) {
    // The length prefix keeps ("a:b","c") and ("a","b:c") apart.
    String name = "subscription|" + accountId.length() + ":" + accountId + "|" + idempotencyKey;
    return PREFIX + hex(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
  }

  public static String random() {
    return PREFIX + hex(UUID.randomUUID());
  }

  private static String hex(UUID uuid) {
    return uuid.toString().replace("-", "");
  }
}
