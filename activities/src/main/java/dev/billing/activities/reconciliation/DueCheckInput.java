package dev.billing.activities.reconciliation;

import java.time.Instant;
import java.time.LocalDate;

/**
 * One page of the due-date check: GSI-2's partition for {@code date}, from {@code cursor} (null for
 * the first page).
 */
record DueCheckInput(
    String reportId, LocalDate date, String cursor, Instant asOf, boolean repair) {}
