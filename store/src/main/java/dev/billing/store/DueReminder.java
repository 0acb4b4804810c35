package dev.billing.store;

import java.time.Instant;
import java.time.LocalDate;

/**
 * A GSI-1 entry: what a reminder needs (the seeds project SKU, Email and NextPaymentDate).
 *
 * @param lastReminderAt null when no reminder was ever sent
 */
public record DueReminder(
    String accountId,
    String subscriptionId,
    String sku,
    String email,
    LocalDate nextReminderDate,
    LocalDate nextPaymentDate,
    Instant lastReminderAt) {}
