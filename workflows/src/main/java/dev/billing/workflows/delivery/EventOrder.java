package dev.billing.workflows.delivery;

import java.util.Comparator;

/**
 * The order of one subscription's events: by the change's version, then the event's place in it,
 * both read from the right of {@code evt_<subscription>_<version>_<n>} (a subscription id may hold
 * '_'). Not the ids' string order: version 10 comes after version 9.
 */
public final class EventOrder {
  private EventOrder() {}

  public static final Comparator<String> BY_ID =
      Comparator.comparingLong(EventOrder::version).thenComparingInt(EventOrder::sequence);

  static long version(String eventId) {
    int last = eventId.lastIndexOf('_');
    int before = eventId.lastIndexOf('_', last - 1);
    return Long.parseLong(eventId.substring(before + 1, last));
  }

  static int sequence(String eventId) {
    return Integer.parseInt(eventId.substring(eventId.lastIndexOf('_') + 1));
  }

  /** Whether an id has the shape of an event id of this subscription. */
  public static boolean isEventOf(String subscriptionId, String eventId) {
    String prefix = "evt_" + subscriptionId + "_";
    if (eventId == null || !eventId.startsWith(prefix)) {
      return false;
    }
    String rest = eventId.substring(prefix.length());
    return rest.matches("[1-9][0-9]{0,17}_(0|[1-9][0-9]?)");
  }
}
