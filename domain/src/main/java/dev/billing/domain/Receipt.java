package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Proof of one successful charge, shown to the customer. Receipts expire (DynamoDB TTL) at {@code
 * expiresAt}; readers filter expired ones because the sweep lags.
 *
 * @param expiresAt null on write: assigned by the store (processedAt plus its receipt retention, a
 *     store setting); a value given is stored as is. Always set on receipts read from the store
 */
public record Receipt(
    String accountId,
    String subscriptionId,
    long cycle,
    String sku,
    String email,
    Money amount,
    Instant processedAt,
    String transactionId,
    String paymentMask,
    Instant expiresAt) {

  public Receipt {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(sku, "sku");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(processedAt, "processedAt");
    Objects.requireNonNull(transactionId, "transactionId");
  }
}
