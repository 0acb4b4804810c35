package dev.billing.api.webhooks;

import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.StoredEvent;

/**
 * What a delivery means: what to store, and what to signal.
 *
 * @param signal null when the event is not signalled; {@code unsignalled} then says why
 */
record ParsedEvent(StoredEvent stored, PaymentEvent signal, String unsignalled) {

  static ParsedEvent signalled(StoredEvent stored, PaymentEvent signal) {
    return new ParsedEvent(stored, signal, null);
  }

  static ParsedEvent storedOnly(StoredEvent stored, String why) {
    return new ParsedEvent(stored, null, why);
  }

  /** True when the event is about a charge billing acts on, but we cannot tell whose. */
  boolean lacksOurMetadata() {
    return signal == null && stored.paymentEventType() != null;
  }
}
