package dev.billing.workflows.reconciliation;

/**
 * What a reconciliation run covers. The dates come from the run's own time: the UTC days from
 * {@code lookbackDays} ago up to today.
 *
 * @param lookbackDays how many days before today are checked again (1 to {@value
 *     #MAX_LOOKBACK_DAYS}); more than one catches what a failed or skipped run missed
 * @param repair false: report only, change nothing (a dry run)
 * @param trigger who started it: "schedule", "cron", or "api:<principal>"
 * @param resume null when starting; where to go on when the run continued as new
 */
public record ReconciliationInput(
    int lookbackDays, boolean repair, String trigger, ReconciliationResume resume) {

  public static final int DEFAULT_LOOKBACK_DAYS = 3;

  /** The gateway keeps events for 30 days (Stripe), and so does the payment-events table. */
  public static final int MAX_LOOKBACK_DAYS = 30;

  public ReconciliationInput {
    if (lookbackDays < 1 || lookbackDays > MAX_LOOKBACK_DAYS) {
      throw new IllegalArgumentException(
          "lookbackDays must be between 1 and " + MAX_LOOKBACK_DAYS + ", got " + lookbackDays);
    }
    trigger = trigger == null || trigger.isBlank() ? "unknown" : trigger;
  }

  public ReconciliationInput(int lookbackDays, boolean repair, String trigger) {
    this(lookbackDays, repair, trigger, null);
  }

  /** The same run, to go on from {@code at} in a new execution. */
  public ReconciliationInput resumingAt(ReconciliationResume at) {
    return new ReconciliationInput(lookbackDays, repair, trigger, at);
  }

  public static ReconciliationInput scheduled(String trigger) {
    return new ReconciliationInput(DEFAULT_LOOKBACK_DAYS, true, trigger);
  }
}
