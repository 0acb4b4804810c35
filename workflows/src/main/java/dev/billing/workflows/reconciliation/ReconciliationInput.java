package dev.billing.workflows.reconciliation;

import dev.billing.domain.reconciliation.FindingKind.Check;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a reconciliation run covers. The dates come from the run's own time: the UTC days from
 * {@code lookbackDays} ago up to today.
 *
 * @param lookbackDays how many days before today are checked again (1 to {@value
 *     #MAX_LOOKBACK_DAYS}); more than one catches what a failed or skipped run missed
 * @param repair false: report only, change nothing (a dry run)
 * @param trigger who started it: "schedule", "cron", or "api:<principal>", with the checks when
 *     they are not all three ({@link #trigger(String, Collection)})
 * @param checks the checks the run makes, always in the order DRIFT, PAYMENTS, WEBHOOKS whatever
 *     the order given; null or empty: all three
 * @param resume null when starting; where to go on when the run continued as new
 */
public record ReconciliationInput(
    int lookbackDays,
    boolean repair,
    String trigger,
    List<Check> checks,
    ReconciliationResume resume) {

  public static final int DEFAULT_LOOKBACK_DAYS = 3;

  /** The gateway keeps events for 30 days (Stripe), and so does the payment-events table. */
  public static final int MAX_LOOKBACK_DAYS = 30;

  /** Every check, in the order a run makes them. */
  public static final List<Check> ALL_CHECKS = List.of(Check.values());

  public ReconciliationInput {
    if (lookbackDays < 1 || lookbackDays > MAX_LOOKBACK_DAYS) {
      throw new IllegalArgumentException(
          "lookbackDays must be between 1 and " + MAX_LOOKBACK_DAYS + ", got " + lookbackDays);
    }
    trigger = trigger == null || trigger.isBlank() ? "unknown" : trigger;
    checks = inRunOrder(checks);
    if (resume != null && !checks.contains(resume.check())) {
      throw new IllegalArgumentException(
          "a run of " + checks + " cannot go on at " + resume.check());
    }
  }

  public ReconciliationInput(int lookbackDays, boolean repair, String trigger) {
    this(lookbackDays, repair, trigger, null, null);
  }

  public ReconciliationInput(
      int lookbackDays, boolean repair, String trigger, Collection<Check> checks) {
    this(lookbackDays, repair, trigger, checks == null ? null : new ArrayList<>(checks), null);
  }

  /** The same run, to go on from {@code at} in a new execution. */
  public ReconciliationInput resumingAt(ReconciliationResume at) {
    return new ReconciliationInput(lookbackDays, repair, trigger, checks, at);
  }

  /** False for a run of some checks only, e.g. the webhook poll's. */
  public boolean checksAll() {
    return checks.size() == ALL_CHECKS.size();
  }

  public static ReconciliationInput scheduled(String trigger) {
    return new ReconciliationInput(DEFAULT_LOOKBACK_DAYS, true, trigger);
  }

  /**
   * A run's trigger: {@code source} for a run of every check, else {@code source} and the checks,
   * e.g. "schedule:webhooks", "api:ops:drift+payments". A report head counts every check, so this
   * is what tells "not run" from "found nothing".
   *
   * @param checks null or empty: all three
   */
  public static String trigger(String source, Collection<Check> checks) {
    List<Check> run = inRunOrder(checks);
    if (run.size() == ALL_CHECKS.size()) {
      return source;
    }
    return source
        + ":"
        + run.stream()
            .map(check -> check.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining("+"));
  }

  /** A list without a null; duplicates collapse, since each check runs once anyway. */
  private static List<Check> inRunOrder(Collection<Check> checks) {
    if (checks == null || checks.isEmpty()) {
      return ALL_CHECKS;
    }
    if (checks.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("checks has an empty entry: " + checks);
    }
    return List.copyOf(EnumSet.copyOf(checks));
  }
}
