package dev.billing.workflows.subscription;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Pause;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import java.time.Instant;
import java.util.List;

/**
 * What a run does next, from the clock and what is due. Pure: the workflow gathers the instants,
 * asks, and does the one thing answered; then it asks again.
 *
 * <p>In a cycle, whatever falls due first happens first; on a tie an earlier period's retry (or
 * settlement) goes before a stale period, the end of a cancellation at period end, this cycle's
 * reminder and its charge. So dunning never skips or moves the next cycle's reminder and charge;
 * they can only wait for a step already under way.
 */
final class RunPlanner {
  private RunPlanner() {}

  /** Where the run's own cycle is. */
  enum Step {
    REMIND,
    CHARGE,
    DONE,
    END
  }

  enum Action {
    /** Serve the open period that is due (a retry, a settlement or a lookup). */
    SERVE_PERIOD,
    /** Record an unpaid period STALE. */
    MARK_STALE,
    /** The paid period of a cancellation at period end is over: cancel. */
    END_AT_PERIOD_END,
    REMIND,
    CHARGE,
    /** The cycle is done: continue as new once handlers and notices are finished. */
    FINISH,
    /** Paused: the pause ends now. */
    RESUME,
    /** Paused: the period due now is skipped. */
    SKIP,
    /**
     * Nothing due: sleep until {@link Next#until} (null: until a handler or event wakes the run).
     */
    SLEEP
  }

  record Next(Action action, Phase phase, Instant until) {
    static Next now(Action action) {
      return new Next(action, null, null);
    }

    static Next sleep(Phase phase, Instant until) {
      return new Next(Action.SLEEP, phase, until);
    }
  }

  /** The run's own cycle: when it reminds, is due, and (cancelling at period end) ends. */
  record Cycle(Instant reminderAt, Instant dueAt, Instant endAt) {}

  /**
   * What the periods being collected ask for.
   *
   * @param due an open period is due now
   * @param stale an unpaid period is stale now
   * @param nextActionAt when the next open period is due; null when none is open
   * @param nextSettling that next period waits for settlement (else for a retry)
   * @param nextStaleAt when the next unpaid period turns stale; null when none will
   */
  record Periods(
      boolean due,
      boolean stale,
      Instant nextActionAt,
      boolean nextSettling,
      Instant nextStaleAt) {}

  /**
   * The first step of a cycle: its end when it cancels at period end; the reminder unless it was
   * sent already (before a pause or a new anchor a cycle is not reminded twice); else the charge.
   */
  static Step firstStep(boolean endsAtPeriodEnd, boolean sendsReminders, boolean reminderDue) {
    return endsAtPeriodEnd ? Step.END : sendsReminders && reminderDue ? Step.REMIND : Step.CHARGE;
  }

  static Next cycle(Instant now, Step step, Cycle cycle, Periods periods) {
    return cycle(now, step, cycle, periods, false);
  }

  /**
   * @param held the cycle's reminder and charge wait: an INCOMPLETE subscription's first payment is
   *     still being collected, and a subscription that may never start is not billed for a second
   *     period; once it is collected they go ahead (late, at once), once it expires there are none.
   *     Held too while a term switch's charge has no outcome: collected, it moves the cycle
   */
  static Next cycle(Instant now, Step step, Cycle cycle, Periods periods, boolean held) {
    if (periods.due()) {
      return Next.now(Action.SERVE_PERIOD);
    }
    if (periods.stale()) {
      return Next.now(Action.MARK_STALE);
    }
    if (step == Step.END && !now.isBefore(cycle.endAt())) {
      return Next.now(Action.END_AT_PERIOD_END);
    }
    if (held && (step == Step.REMIND || step == Step.CHARGE)) {
      Instant periodAt = periods.nextActionAt();
      return Next.sleep(
          periods.nextSettling() ? Phase.WAITING_FOR_SETTLEMENT : Phase.WAITING_FOR_RETRY,
          periodAt);
    }
    if (step == Step.REMIND && !now.isBefore(cycle.reminderAt())) {
      return Next.now(Action.REMIND);
    }
    if (step == Step.CHARGE && !now.isBefore(cycle.dueAt())) {
      return Next.now(Action.CHARGE);
    }
    if (step == Step.END) {
      return sleepUntilNext(Phase.WAITING_FOR_PAYMENT, cycle.endAt(), periods);
    }
    if (step == Step.DONE) {
      return Next.now(Action.FINISH);
    }
    return step == Step.REMIND
        ? sleepUntilNext(Phase.WAITING_FOR_REMINDER, cycle.reminderAt(), periods)
        : sleepUntilNext(Phase.WAITING_FOR_PAYMENT, cycle.dueAt(), periods);
  }

  /** Until the cycle's next step or a period's next action, whichever is first. */
  private static Next sleepUntilNext(Phase cyclePhase, Instant cycleAt, Periods periods) {
    Instant staleAt = periods.nextStaleAt();
    Instant periodAt = periods.nextActionAt();
    if (staleAt != null
        && staleAt.isBefore(cycleAt)
        && (periodAt == null || staleAt.isBefore(periodAt))) {
      return Next.sleep(Phase.WAITING_FOR_RETRY, staleAt);
    }
    if (periodAt != null && periodAt.isBefore(cycleAt)) {
      return Next.sleep(
          periods.nextSettling() ? Phase.WAITING_FOR_SETTLEMENT : Phase.WAITING_FOR_RETRY,
          periodAt);
    }
    return Next.sleep(cyclePhase, cycleAt);
  }

  /**
   * While paused: no reminder, no charge, no dunning retry. Charges made before the pause still
   * settle; a period due meanwhile is skipped; a pause with an end resumes by itself.
   *
   * @param periods {@code due}: a settlement is due (retries wait for the resume)
   */
  static Next paused(
      Instant now, BillingSchedule schedule, Pause pause, long cycle, Periods periods) {
    Instant resumeAt = resumeAt(schedule, pause, cycle);
    Instant skipAt = skipAt(schedule, pause, cycle);
    if (periods.due()) {
      return Next.now(Action.SERVE_PERIOD);
    }
    if (periods.stale()) {
      return Next.now(Action.MARK_STALE);
    }
    if (resumeAt != null && !now.isBefore(resumeAt) && !skipFirst(resumeAt, skipAt, now)) {
      return Next.now(Action.RESUME);
    }
    if (skipAt != null && !now.isBefore(skipAt)) {
      return Next.now(Action.SKIP);
    }
    Instant until = earliest(earliest(resumeAt, skipAt), periods.nextActionAt());
    return Next.sleep(Phase.PAUSED, earliest(until, periods.nextStaleAt()));
  }

  /**
   * When a pause with an end resumes: its end date, or the reminder of the payment it restarts with
   * if earlier; null for an open-ended pause.
   */
  static Instant resumeAt(BillingSchedule schedule, Pause pause, long cycle) {
    if (pause.resumesOn() == null) {
      return null;
    }
    Instant end = schedule.startOfDay(pause.resumesOn());
    if (!schedule.sendsReminders()) {
      return end;
    }
    Instant reminder = schedule.reminderAt(schedule.firstCycleOnOrAfter(cycle, pause.resumesOn()));
    return reminder.isBefore(end) ? reminder : end;
  }

  /**
   * When the cycle the subscription is on is skipped: its due instant, if that comes while paused.
   */
  static Instant skipAt(BillingSchedule schedule, Pause pause, long cycle) {
    boolean skips =
        pause.resumesOn() == null || schedule.dueDate(cycle).isBefore(pause.resumesOn());
    return skips ? schedule.dueAt(cycle) : null;
  }

  /**
   * A skipped cycle due at the very instant the pause resumes (the restart cycle's reminder, 28
   * days before it, falls on this one's due date in February) is skipped before the resume, which
   * would otherwise bill it.
   */
  static boolean skipFirst(Instant resumeAt, Instant skipAt, Instant now) {
    return skipAt != null && !now.isBefore(skipAt) && !skipAt.isAfter(resumeAt);
  }

  /** When an unpaid period turns stale; null when none will. */
  static Instant staleAt(BillingSchedule schedule, UnpaidPeriod unpaid) {
    return unpaid.staleAfterDays() <= 0
        ? null
        : schedule.startOfDay(unpaid.dueDate().plusDays(unpaid.staleAfterDays()));
  }

  /** The first unpaid period that is stale at {@code now}; null when none is. */
  static UnpaidPeriod firstStale(BillingSchedule schedule, List<UnpaidPeriod> unpaid, Instant now) {
    for (UnpaidPeriod period : unpaid) {
      Instant at = staleAt(schedule, period);
      if (at != null && !now.isBefore(at)) {
        return period;
      }
    }
    return null;
  }

  static Instant nextStaleAt(BillingSchedule schedule, List<UnpaidPeriod> unpaid) {
    Instant first = null;
    for (UnpaidPeriod period : unpaid) {
      first = earliest(first, staleAt(schedule, period));
    }
    return first;
  }

  static Instant earliest(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
  }
}
