package dev.billing.workflows.delivery;

import java.util.List;

/**
 * @param eventIds ids of the subscription's events ({@code evt_<subscription>_<version>_<n>})
 */
public record EventsRecorded(List<String> eventIds) {
  public EventsRecorded {
    eventIds = List.copyOf(eventIds);
  }
}
