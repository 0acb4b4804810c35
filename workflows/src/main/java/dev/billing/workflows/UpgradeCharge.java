package dev.billing.workflows;

import dev.billing.domain.Money;
import dev.billing.domain.PaidUpgradeCharge;
import java.time.LocalDate;

/**
 * An immediate upgrade's prorated charge within the paid period: a cancellation with refundUnused
 * refunds its unused share too.
 *
 * @param from the first day it paid for
 * @param until the end of the paid period (exclusive)
 * @param idempotencyKey the charge's key (derived from the request's id): a return names it
 */
public record UpgradeCharge(
    long cycle,
    String transactionId,
    Money amount,
    LocalDate from,
    LocalDate until,
    String idempotencyKey) {

  /** As the subscription item keeps it. */
  public PaidUpgradeCharge toRecord() {
    return new PaidUpgradeCharge(cycle, idempotencyKey, transactionId, amount, from, until);
  }

  /** As a run restarted from the record takes it back. */
  public static UpgradeCharge of(PaidUpgradeCharge paid) {
    return new UpgradeCharge(
        paid.cycle(),
        paid.transactionId(),
        paid.amount(),
        paid.from(),
        paid.until(),
        paid.idempotencyKey());
  }
}
