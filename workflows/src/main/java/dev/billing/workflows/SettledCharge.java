package dev.billing.workflows;

/**
 * A recently collected period, remembered so that a later return of its payment (a bank debit can
 * come back days after it settled) can reopen it, even from a later run.
 */
public record SettledCharge(long cycle, int attempt, String idempotencyKey, String transactionId) {}
