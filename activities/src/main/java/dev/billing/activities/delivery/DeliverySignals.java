package dev.billing.activities.delivery;

import java.util.List;

/** Tells a subscription's delivery workflow of events to deliver (signal-with-start). */
public interface DeliverySignals {
  void eventsRecorded(String subscriptionId, List<String> eventIds);

  /** For stacks without delivery: the events wait for a sweep. */
  DeliverySignals NONE = (subscriptionId, eventIds) -> {};
}
