package dev.billing.workflows.activities;

import dev.billing.domain.reconciliation.CheckResult;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One call of a check step over the run's window of UTC dates. A step works through the dates in
 * order and returns after a bounded amount of work with a cursor where it stopped, so one call
 * stays well inside its timeout however much is due, and a typical day takes one call for the whole
 * window.
 *
 * @param reportId the report the findings go to
 * @param from first date, inclusive
 * @param to last date, inclusive
 * @param cursor where the previous call stopped ({@link CheckResult#nextCursor()}, opaque); null to
 *     start at {@code from}
 * @param asOf the run's time: what "overdue" and "in flight" are measured against, and nothing
 *     after it is read from the gateway
 * @param repair false for a dry run
 */
public record WindowCheckInput(
    String reportId, LocalDate from, LocalDate to, String cursor, Instant asOf, boolean repair) {

  public WindowCheckInput {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(asOf, "asOf");
    if (to.isBefore(from)) {
      throw new IllegalArgumentException("window ends before it starts: " + from + " to " + to);
    }
  }
}
