package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.ReconciliationSummary;
import java.util.Objects;

/**
 * Where a run that continued as new goes on: the report head so far (its id, window, "now" and
 * counts stay those of the first run), the check it was in and that check's cursor.
 *
 * @param cursor the check's next call's cursor; null to start the check from the window's start
 */
public record ReconciliationResume(
    ReconciliationSummary summary, FindingKind.Check check, String cursor) {

  public ReconciliationResume {
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(check, "check");
  }
}
