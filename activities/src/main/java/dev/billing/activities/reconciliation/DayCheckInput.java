package dev.billing.activities.reconciliation;

import java.time.Instant;
import java.time.LocalDate;

/** One UTC day of a gateway comparison: {@code [day 00:00Z, min(day + 1, asOf))}. */
record DayCheckInput(String reportId, LocalDate day, Instant asOf, boolean repair) {}
