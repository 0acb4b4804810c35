package dev.billing.domain;

import java.time.LocalDate;
import java.util.Objects;

/**
 * An immediate upgrade's prorated charge that collected, kept on the subscription item while its
 * period may still need it: a return of it (a bank debit comes back days later) or a cancellation
 * refunding its unused days is then recognised by a run restarted from the record too.
 *
 * @param cycle the period it paid the rest of (its receipt's cycle)
 * @param idempotencyKey its key, derived from the request's id: a return names it
 * @param from the first day it paid for
 * @param until the end of the paid period (exclusive)
 */
public record PaidUpgradeCharge(
    long cycle,
    String idempotencyKey,
    String transactionId,
    Money amount,
    LocalDate from,
    LocalDate until) {

  public PaidUpgradeCharge {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(until, "until");
  }
}
