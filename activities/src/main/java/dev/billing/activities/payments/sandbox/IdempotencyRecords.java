package dev.billing.activities.payments.sandbox;

import dev.billing.activities.payments.IdempotencyConflictException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the gateway remembers of each idempotency key: the first request's parameters and the answer
 * it got, for {@code retention} from that first request (Stripe: at least 24 hours). After that the
 * key is forgotten and a request with it is a new request. Not thread-safe: the gateway's lock
 * guards it.
 *
 * @param <P> the parameters a reuse is compared with
 * @param <A> the stored answer
 */
final class IdempotencyRecords<P, A> {

  record Entry<P, A>(P parameters, A answer, Instant firstRequestAt) {}

  private final Duration retention;
  // Insertion order is first-request order, so the expired ones are at the head.
  private final LinkedHashMap<String, Entry<P, A>> entries = new LinkedHashMap<>();

  IdempotencyRecords(Duration retention) {
    this.retention = Objects.requireNonNull(retention, "retention");
  }

  /** The record of {@code key}, or null when there is none (never was, or pruned by now). */
  Entry<P, A> find(String key, Instant now) {
    prune(now);
    Entry<P, A> entry = entries.get(key);
    // Checked here too: a clock moved backwards leaves later records ahead of expired ones.
    if (entry != null && expired(entry, now)) {
      entries.remove(key);
      return null;
    }
    return entry;
  }

  void remember(String key, P parameters, A answer, Instant now) {
    entries.put(key, new Entry<>(parameters, answer, now));
  }

  /** Keys remembered now. */
  int size(Instant now) {
    prune(now);
    return entries.size();
  }

  /**
   * Stripe's answer to a key reused with other parameters. Names the parameters that differ, never
   * their values: a payment method token must not reach the logs.
   */
  static IdempotencyConflictException conflict(String key, List<String> differences) {
    return new IdempotencyConflictException(
        "Keys for idempotent requests can only be used with the"
            + " same parameters they were first used with. Try using a key other than '"
            + key
            + "' if you meant to execute a different request (differs: "
            + String.join(", ", differences)
            + ").",
        null);
  }

  private void prune(Instant now) {
    Iterator<Map.Entry<String, Entry<P, A>>> it = entries.entrySet().iterator();
    while (it.hasNext() && expired(it.next().getValue(), now)) {
      it.remove();
    }
  }

  private boolean expired(Entry<P, A> entry, Instant now) {
    return !now.isBefore(entry.firstRequestAt().plus(retention));
  }
}
