package dev.billing.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One billing period of a subscription (seed 004 keeps one record per period). Its id is the cycle
 * number.
 *
 * @param attempts collection attempts made so far
 * @param transactionId the gateway's id of the successful charge, or of the pending one while it
 *     settles; null otherwise
 * @param failureCode the gateway's decline or error code of the last failed attempt
 * @param refunded the total refunded so far; null when nothing was
 */
public record Period(
    String accountId,
    String subscriptionId,
    long cycle,
    LocalDate dueDate,
    Money amount,
    PeriodStatus status,
    int attempts,
    String transactionId,
    String failureCode,
    String failureMessage,
    Instant updatedAt,
    Money refunded) {

  public Period {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(dueDate, "dueDate");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** A period without refunds. */
  public Period(String accountId, String subscriptionId, long cycle, LocalDate dueDate, Money amount,
      PeriodStatus status, int attempts, String transactionId, String failureCode,
      String failureMessage, Instant updatedAt) {
    this(accountId, subscriptionId, cycle, dueDate, amount, status, attempts, transactionId,
        failureCode, failureMessage, updatedAt, null);
  }

  /** What can still be refunded: the amount collected less what was refunded already. */
  public Money refundable() {
    return refunded == null ? amount : amount.minus(refunded);
  }
}
