package dev.billing.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The sweep of the undelivered index (ADR 0012), on the deliveries task queue. */
@ActivityInterface
public interface EventSweepActivities {

  /**
   * Signals the delivery workflow of every subscription with events still owed (written more than a
   * minute ago, so the record activity's own signal has had its chance), and settles the owed
   * events no endpoint wants. Bounded per call; the next sweep goes on.
   */
  @ActivityMethod(name = "SweepUndeliveredEvents")
  EventSweepResult sweep(EventSweepInput input);
}
