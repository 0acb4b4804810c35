package dev.billing.activities.views;

import dev.billing.domain.Period;

/**
 * One billing period (cycle) and what happened to its collection.
 *
 * @param refundedAmount the total refunded of this period (in its currency); null when nothing was
 */
public record PeriodView(
    long cycle,
    String dueDate,
    String amount,
    String currency,
    String refundedAmount,
    String status,
    int attempts,
    String transactionId,
    String failureCode,
    String failureMessage,
    String updatedAt) {

  public static PeriodView of(Period p) {
    return new PeriodView(
        p.cycle(),
        Timestamps.date(p.dueDate()),
        p.amount().toPlainString(),
        p.amount().currency(),
        p.refunded() == null ? null : p.refunded().toPlainString(),
        p.status().name(),
        p.attempts(),
        p.transactionId(),
        p.failureCode(),
        p.failureMessage(),
        Timestamps.instant(p.updatedAt()));
  }
}
