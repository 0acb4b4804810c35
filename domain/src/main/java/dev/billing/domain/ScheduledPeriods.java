package dev.billing.domain;

import java.util.List;

/**
 * Which period record a change leaves as {@link PeriodStatus#SCHEDULED}: the next regular charge
 * (as {@link Upcoming} computes it from the record after the change), with the date and the amount
 * it will charge. Decided from the change alone, as the merchant events are, so the store writes it
 * in the change's own transaction and the subscription workflow does not change.
 *
 * <p>A SCHEDULED record is never money: no charge was sent for it. The workflow's own writes move
 * it on (collected, unpaid, skipped by a pause, cancelled); a change that moves the next charge to
 * another cycle, or leaves none (an open-ended pause, a cancellation at the period's end), removes
 * the one it had scheduled.
 */
public final class ScheduledPeriods {

  /**
   * @param schedule the period to write as SCHEDULED; null when none
   * @param unschedule the cycle whose SCHEDULED record is no longer coming; null when none
   */
  public record Plan(Period schedule, Long unschedule) {
    public static final Plan NONE = new Plan(null, null);
  }

  private ScheduledPeriods() {}

  public static Plan of(RecordInput change) {
    Long written = change.period() == null ? null : change.period().cycle();
    Upcoming.Charge next = charge(change.next());
    Upcoming.Charge before = change.previous() == null ? null : charge(change.previous());
    Period schedule = null;
    if (next != null && !sameCycle(next.cycle(), written)) {
      schedule =
          new Period(
              change.next().accountId(),
              change.next().subscriptionId(),
              next.cycle(),
              next.dueDate(),
              next.amount(),
              PeriodStatus.SCHEDULED,
              0,
              null,
              null,
              null,
              change.at(),
              null,
              List.of());
    }
    Long unschedule = null;
    if (before != null
        && !sameCycle(before.cycle(), written)
        && (next == null || next.cycle() != before.cycle())) {
      unschedule = before.cycle();
    }
    return schedule == null && unschedule == null ? Plan.NONE : new Plan(schedule, unschedule);
  }

  private static Upcoming.Charge charge(Subscription sub) {
    return Upcoming.of(sub) instanceof Upcoming.Charge charge ? charge : null;
  }

  private static boolean sameCycle(long cycle, Long written) {
    return written != null && written == cycle;
  }
}
