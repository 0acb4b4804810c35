package dev.billing.workflows;

import dev.billing.domain.Money;
import java.time.LocalDate;

/**
 * An immediate upgrade's prorated charge within the paid period: a cancellation with refundUnused
 * refunds its unused share too.
 *
 * @param from the first day it paid for
 * @param until the end of the paid period (exclusive)
 * @param idempotencyKey the charge's key (derived from the request's id): a return names it
 */
public record UpgradeCharge(long cycle, String transactionId, Money amount, LocalDate from,
    LocalDate until, String idempotencyKey) {}
