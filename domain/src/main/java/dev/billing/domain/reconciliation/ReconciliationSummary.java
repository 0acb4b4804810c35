package dev.billing.domain.reconciliation;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;

/**
 * The head of a reconciliation report: what the run covered, how far it got and what it found. The
 * findings themselves are stored with the report, one item each.
 *
 * @param reportId the run's id (Temporal's run id of the execution)
 * @param workflowId the execution's workflow id (the schedule's or cron workflow's, or a manual
 *     one)
 * @param from first UTC date covered
 * @param to last UTC date covered (the run's today)
 * @param failedSteps steps that failed after their retries, e.g. "CompareGatewayCharges 2026-11-20:
 *     gateway unavailable"; the run goes on with the others and ends PARTIAL
 * @param finishedAt null while RUNNING
 */
public record ReconciliationSummary(
    String reportId,
    String workflowId,
    String trigger,
    Status status,
    Instant startedAt,
    Instant finishedAt,
    LocalDate from,
    LocalDate to,
    boolean repair,
    ReconciliationCounts counts,
    List<String> failedSteps) {

  public enum Status {
    RUNNING,
    /** Every step ran. */
    COMPLETED,
    /** Some steps failed; the others ran. */
    PARTIAL
  }

  public ReconciliationSummary {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    counts = counts == null ? ReconciliationCounts.ZERO : counts;
    failedSteps = failedSteps == null ? List.of() : List.copyOf(failedSteps);
  }

  public ReconciliationSummary withCounts(ReconciliationCounts newCounts) {
    return new ReconciliationSummary(
        reportId,
        workflowId,
        trigger,
        status,
        startedAt,
        finishedAt,
        from,
        to,
        repair,
        newCounts,
        failedSteps);
  }

  public ReconciliationSummary withFailedStep(String step) {
    List<String> failed = new java.util.ArrayList<>(failedSteps);
    failed.add(step);
    return new ReconciliationSummary(
        reportId,
        workflowId,
        trigger,
        status,
        startedAt,
        finishedAt,
        from,
        to,
        repair,
        counts,
        failed);
  }

  public ReconciliationSummary finished(Instant at) {
    return new ReconciliationSummary(
        reportId,
        workflowId,
        trigger,
        failedSteps.isEmpty() ? Status.COMPLETED : Status.PARTIAL,
        startedAt,
        at,
        from,
        to,
        repair,
        counts,
        failedSteps);
  }
}
