package dev.billing.workflows.subscription;

import dev.billing.domain.PaymentEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Payment events signalled to the run that still need the main thread, and the ids of those already
 * taken, so a repeated delivery is dropped. Deterministic; only workflow threads touch it.
 */
final class EventInbox {

  /** Event ids remembered for deduplication; older duplicates are still caught by the state. */
  static final int MAX_SEEN_EVENTS = 200;

  private final LinkedHashSet<String> seen = new LinkedHashSet<>();
  private final Deque<PaymentEvent> inbox = new ArrayDeque<>();

  EventInbox(List<String> seenEventIds, List<PaymentEvent> pendingEvents) {
    seen.addAll(seenEventIds);
    inbox.addAll(pendingEvents);
  }

  List<String> seenEventIds() {
    return new ArrayList<>(seen);
  }

  List<PaymentEvent> pendingEvents() {
    return new ArrayList<>(inbox);
  }

  /** Returns why the event was dropped (a duplicate), or null when it was queued. */
  String receive(PaymentEvent event) {
    if (!seen.add(event.eventId())) {
      return "duplicate delivery of " + event.eventId();
    }
    if (seen.size() > MAX_SEEN_EVENTS) {
      Iterator<String> oldest = seen.iterator();
      oldest.next();
      oldest.remove();
    }
    inbox.add(event);
    return null;
  }

  boolean hasEvents() {
    return !inbox.isEmpty();
  }

  PaymentEvent nextEvent() {
    return inbox.poll();
  }
}
