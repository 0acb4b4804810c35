package dev.billing.workflows.subscription;

import dev.billing.domain.PaymentEvent;
import dev.billing.workflows.SettledCharge;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The charges a run still answers events about after their period closed: recently settled ones (a
 * return reopens their period) and returned ones (their late or repeated events change nothing).
 * Both are bounded, oldest dropped first. Deterministic; only workflow threads touch it.
 */
final class ChargeLedger {

  /** Settled charges remembered for returns: a year of monthly periods. */
  static final int MAX_SETTLED = 12;

  /** Returned charges remembered, so that their late or repeated events change nothing. */
  static final int MAX_RETURNED = 12;

  private final Deque<SettledCharge> settled = new ArrayDeque<>();
  private final Deque<SettledCharge> returned = new ArrayDeque<>();

  ChargeLedger(List<SettledCharge> settled, List<SettledCharge> returned) {
    this.settled.addAll(settled);
    this.returned.addAll(returned);
  }

  List<SettledCharge> settledCharges() {
    return new ArrayList<>(settled);
  }

  List<SettledCharge> returnedCharges() {
    return new ArrayList<>(returned);
  }

  SettledCharge settledFor(PaymentEvent event) {
    for (SettledCharge charge : settled) {
      if (matches(event, charge.idempotencyKey(), charge.transactionId())) {
        return charge;
      }
    }
    return null;
  }

  /** A returned charge the event is about, or null. */
  SettledCharge returnedFor(PaymentEvent event) {
    for (SettledCharge charge : returned) {
      if (matches(event, charge.idempotencyKey(), charge.transactionId())) {
        return charge;
      }
    }
    return null;
  }

  void settled(SettledCharge charge) {
    settled.removeIf(s -> s.cycle() == charge.cycle());
    settled.addLast(charge);
    while (settled.size() > MAX_SETTLED) {
      settled.removeFirst();
    }
  }

  /**
   * The charge came back (or the gateway says it did): it no longer counts as settled, and events
   * about it have no effect from now on.
   */
  void returned(SettledCharge charge) {
    settled.remove(charge);
    returned.removeIf(r -> r.idempotencyKey().equals(charge.idempotencyKey()));
    returned.addLast(charge);
    while (returned.size() > MAX_RETURNED) {
      returned.removeFirst();
    }
  }

  static boolean matches(PaymentEvent event, String key, String transactionId) {
    if (event.idempotencyKey() != null) {
      return event.idempotencyKey().equals(key);
    }
    return transactionId != null && transactionId.equals(event.transactionId());
  }
}
