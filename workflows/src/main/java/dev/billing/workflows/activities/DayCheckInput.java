package dev.billing.workflows.activities;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One UTC day of a gateway comparison: {@code [day 00:00Z, min(day + 1, asOf))}.
 *
 * @param asOf the run's time: nothing after it is looked at, and very recent charges count as in flight
 */
public record DayCheckInput(String reportId, LocalDate day, Instant asOf, boolean repair) {
  public DayCheckInput {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(day, "day");
    Objects.requireNonNull(asOf, "asOf");
  }
}
