package dev.billing.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One billing period of a subscription (seed 004 keeps one record per period). Its id is the cycle
 * number.
 *
 * @param attempts collection attempts made so far
 * @param transactionId the gateway's id of the successful charge, null otherwise
 * @param failureCode the gateway's decline or error code of the last failed attempt
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
    Instant updatedAt) {

  public Period {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(dueDate, "dueDate");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
