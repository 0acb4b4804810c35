package dev.billing.workflows;

import dev.billing.domain.Money;

/**
 * A recently collected period, remembered so that a later return of its payment (a bank debit can
 * come back days after it settled) can reopen it, even from a later run.
 *
 * @param amount what was collected, which a return re-collects; null for charges remembered before
 *     amounts were kept (their return falls back to the price)
 */
public record SettledCharge(
    long cycle, int attempt, String idempotencyKey, String transactionId, Money amount) {}
