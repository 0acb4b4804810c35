package dev.billing.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One billing period of a subscription, one record per period. Its id is the cycle number.
 *
 * @param attempts collection attempts made so far
 * @param transactionId the gateway's id of the successful charge, or of the pending one while it
 *     settles; null otherwise
 * @param failureCode the gateway's decline or error code of the last failed attempt
 * @param refunded the total refunded so far of the period's own charge; null when nothing was
 * @param refunds every refund asked of the period's money (its own charge and upgrades charged
 *     within it), made or with an unknown outcome, by key; empty when none
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
    Money refunded,
    List<PeriodRefund> refunds) {

  public Period {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(subscriptionId, "subscriptionId");
    Objects.requireNonNull(dueDate, "dueDate");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(updatedAt, "updatedAt");
    refunds = refunds == null ? List.of() : List.copyOf(refunds);
  }

  /** A period without refund requests. */
  public Period(
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
    this(
        accountId,
        subscriptionId,
        cycle,
        dueDate,
        amount,
        status,
        attempts,
        transactionId,
        failureCode,
        failureMessage,
        updatedAt,
        refunded,
        null);
  }

  /** A period without refunds. */
  public Period(
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
    this(
        accountId,
        subscriptionId,
        cycle,
        dueDate,
        amount,
        status,
        attempts,
        transactionId,
        failureCode,
        failureMessage,
        updatedAt,
        null);
  }

  /** The refund asked with {@code key}; null when none was. */
  public PeriodRefund refund(String key) {
    return refunds.stream().filter(r -> r.idempotencyKey().equals(key)).findFirst().orElse(null);
  }

  /** This period with {@code refund} in place of the one with its key, or added. */
  public Period withRefund(PeriodRefund refund) {
    List<PeriodRefund> next = new ArrayList<>(refunds);
    next.removeIf(r -> r.idempotencyKey().equals(refund.idempotencyKey()));
    next.add(refund);
    return withRefunds(next);
  }

  /**
   * This period without the refund asked with {@code key} (the gateway refused it: no money moved).
   */
  public Period withoutRefund(String key) {
    List<PeriodRefund> next = new ArrayList<>(refunds);
    next.removeIf(r -> r.idempotencyKey().equals(key));
    return withRefunds(next);
  }

  private Period withRefunds(List<PeriodRefund> next) {
    return new Period(
        accountId,
        subscriptionId,
        cycle,
        dueDate,
        amount,
        status,
        attempts,
        transactionId,
        failureCode,
        failureMessage,
        updatedAt,
        refunded,
        next);
  }

  /** What can still be refunded: the amount collected less what was refunded already. */
  public Money refundable() {
    return refunded == null ? amount : amount.minus(refunded);
  }
}
