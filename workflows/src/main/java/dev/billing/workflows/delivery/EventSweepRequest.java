package dev.billing.workflows.delivery;

/**
 * @param lookbackDays UTC days before today swept too (1 to 30): the retry window (three days) and
 *     a day of margin by default
 * @param limit events read at most per run
 */
public record EventSweepRequest(int lookbackDays, int limit) {
  public static final int DEFAULT_LOOKBACK_DAYS = 4;
  public static final int DEFAULT_LIMIT = 2_000;

  public EventSweepRequest {
    if (lookbackDays < 1 || lookbackDays > 30) {
      throw new IllegalArgumentException("lookbackDays must be 1 to 30, got " + lookbackDays);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive, got " + limit);
    }
  }

  public static EventSweepRequest defaults() {
    return new EventSweepRequest(DEFAULT_LOOKBACK_DAYS, DEFAULT_LIMIT);
  }
}
