package dev.billing.workflows.activities;

import dev.billing.domain.Money;
import dev.billing.domain.Subscription;
import java.util.Objects;

/**
 * One refund of (part of) a collected period.
 *
 * @param idempotencyKey the same on every retry of this refund (see {@link
 *     dev.billing.domain.BillingIds#refundKey})
 * @param transactionId the gateway's id of the charge that collected the period
 * @param reason for the history and the gateway's records; may be null
 */
public record RefundInput(
    String accountId,
    String subscriptionId,
    long cycle,
    String transactionId,
    Money amount,
    String idempotencyKey,
    String reason) {
  public RefundInput {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }

  /** A refund of period {@code cycle} of {@code sub}; the call site names the rest. */
  public static Builder of(Subscription sub, long cycle) {
    return new Builder(sub.accountId(), sub.subscriptionId(), cycle);
  }

  /** Names each field of a refund at its call site; the payload is the record's, unchanged. */
  public static final class Builder {
    private final String accountId;
    private final String subscriptionId;
    private final long cycle;
    private String transactionId;
    private Money amount;
    private String idempotencyKey;
    private String reason;

    private Builder(String accountId, String subscriptionId, long cycle) {
      this.accountId = accountId;
      this.subscriptionId = subscriptionId;
      this.cycle = cycle;
    }

    /** The gateway's id of the charge refunded. */
    public Builder ofCharge(String id) {
      transactionId = id;
      return this;
    }

    public Builder amount(Money money) {
      amount = money;
      return this;
    }

    public Builder idempotencyKey(String key) {
      idempotencyKey = key;
      return this;
    }

    public Builder reason(String text) {
      reason = text;
      return this;
    }

    public RefundInput build() {
      return new RefundInput(
          accountId, subscriptionId, cycle, transactionId, amount, idempotencyKey, reason);
    }
  }
}
