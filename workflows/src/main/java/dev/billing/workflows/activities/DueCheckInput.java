package dev.billing.workflows.activities;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One page of the due-date check.
 *
 * @param reportId the report the findings go to
 * @param date the NextPaymentDate partition of GSI-2
 * @param cursor where the previous page stopped (opaque, from {@link CheckResult#nextCursor()}); null
 *     for the first page
 * @param asOf the run's time: what "overdue" is measured against
 * @param repair false for a dry run
 */
public record DueCheckInput(String reportId, LocalDate date, String cursor, Instant asOf, boolean repair) {
  public DueCheckInput {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(date, "date");
    Objects.requireNonNull(asOf, "asOf");
  }
}
