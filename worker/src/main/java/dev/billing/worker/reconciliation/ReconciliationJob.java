package dev.billing.worker.reconciliation;

import dev.billing.domain.reconciliation.FindingKind.Check;
import dev.billing.workflows.reconciliation.ReconciliationInput;
import java.time.Duration;
import java.util.List;

/**
 * One reconciliation the worker keeps scheduled: the nightly run of every check, or the
 * missed-webhook poll. Both are the same workflow with the same report; they differ in timetable,
 * input and what an operator reads about them in the Temporal UI. Each has its own id, so each
 * skips only its own overlapping runs: a long nightly run never holds up a poll.
 *
 * @param name what the logs call it
 * @param id the Temporal Schedule's id, and the cron workflow's id where there are no Schedules
 * @param cron five-field cron, UTC
 * @param catchupWindow how late a run missed while the server was down still starts
 * @param note the schedule's note and memo in the Temporal UI
 */
record ReconciliationJob(
    String name,
    String id,
    String cron,
    int lookbackDays,
    List<Check> checks,
    Duration catchupWindow,
    String note) {

  ReconciliationJob {
    checks = List.copyOf(checks);
  }

  /**
   * What each run starts with; {@code mode} ("schedule" or "cron") is its trigger, followed by the
   * checks when they are not all three ("schedule:webhooks").
   */
  ReconciliationInput input(String mode) {
    return new ReconciliationInput(
        lookbackDays, true, ReconciliationInput.trigger(mode, checks), checks);
  }

  /** Temporal's cron workflows take five fields only (no seconds, no "@every"). */
  static String requireFiveFields(String setting, String cron) {
    if (cron.split("\\s+").length != 5) {
      throw new IllegalArgumentException(
          setting + " must have five fields (minute hour day month weekday): " + cron);
    }
    return cron;
  }
}
