package dev.billing.store;

import java.time.Period;
import java.util.Arrays;
import java.util.Objects;

/**
 * Settings of {@link DynamoBillingStore}.
 *
 * @param receiptRetention how long a receipt stays visible after it was processed, in UTC calendar
 *     terms (P12M: a receipt of Jan 31 expires Jan 31 a year later; one of Feb 29 on Feb 28)
 * @param pageTokenKey HMAC-SHA256 key that signs page tokens; at least 32 bytes, the same on every
 *     process that serves the same API (a token issued by one must be accepted by the others)
 * @param dateKeyShards how many shards the due-date index keys get on a table opened for the first
 *     time ({@link DateKeySharding}); a table that has its count keeps it
 */
public record StoreSettings(Period receiptRetention, byte[] pageTokenKey, int dateKeyShards) {

  /**
   * The seeds show six months of receipts; six more leave room for disputes and support requests.
   */
  public static final Period DEFAULT_RECEIPT_RETENTION = Period.ofMonths(12);

  /** RFC 2104: a key shorter than the hash output (32 bytes for SHA-256) weakens the MAC. */
  public static final int MIN_KEY_BYTES = 32;

  public StoreSettings {
    Objects.requireNonNull(receiptRetention, "receiptRetention");
    Objects.requireNonNull(pageTokenKey, "pageTokenKey");
    if (receiptRetention.isZero() || receiptRetention.isNegative()) {
      throw new IllegalArgumentException("receiptRetention must be positive: " + receiptRetention);
    }
    if (pageTokenKey.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException(
          "pageTokenKey must be at least " + MIN_KEY_BYTES + " bytes, got " + pageTokenKey.length);
    }
    pageTokenKey = pageTokenKey.clone();
    DateKeySharding.of(dateKeyShards);
  }

  /** Settings with the default shard count. */
  public StoreSettings(Period receiptRetention, byte[] pageTokenKey) {
    this(receiptRetention, pageTokenKey, DateKeySharding.DEFAULT_SHARDS);
  }

  public static StoreSettings defaults(byte[] pageTokenKey) {
    return new StoreSettings(DEFAULT_RECEIPT_RETENTION, pageTokenKey);
  }

  @Override
  public byte[] pageTokenKey() {
    return pageTokenKey.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoreSettings other
        && receiptRetention.equals(other.receiptRetention)
        && Arrays.equals(pageTokenKey, other.pageTokenKey)
        && dateKeyShards == other.dateKeyShards;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * receiptRetention.hashCode() + Arrays.hashCode(pageTokenKey)) + dateKeyShards;
  }

  /** Never prints the key: settings end up in start-up logs. */
  @Override
  public String toString() {
    return "StoreSettings[receiptRetention="
        + receiptRetention
        + ", pageTokenKey=("
        + pageTokenKey.length
        + " bytes), dateKeyShards="
        + dateKeyShards
        + "]";
  }
}
