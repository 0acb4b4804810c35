package dev.billing.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * Proof of one successful charge, shown to the customer. Receipts expire (DynamoDB TTL) at
 * {@code expiresAt}; readers filter expired ones because the sweep lags.
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
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
