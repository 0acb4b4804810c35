package dev.billing.workflows.subscription;

import dev.billing.domain.PaymentMethod;
import dev.billing.workflows.SentKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * The charge keys a run sent (to which payment method, and when each send ended) and the keys a
 * lost run may have sent. A key is looked up under the method it was sent to, and a NOT_FOUND
 * proves it unsent only some time after its send ended ({@link DunningSchedule#RESOLVE_AFTER}).
 */
final class SentKeys {
  private final Map<String, SentKey> sentKeys = new LinkedHashMap<>();
  private final Set<String> unverifiedKeys = new LinkedHashSet<>();

  SentKeys(List<SentKey> sent, List<String> unverified) {
    sent.forEach(k -> sentKeys.put(k.key(), k));
    unverifiedKeys.addAll(unverified);
  }

  /**
   * The keys still needed by the next run: a key is looked up only while its period is open or
   * owed, or while a lost run's send is unverified.
   */
  List<SentKey> stillNeeded(LongPredicate periodOpenOrOwed) {
    return sentKeys.values().stream()
        .filter(k -> periodOpenOrOwed.test(k.cycle()) || unverifiedKeys.contains(k.key()))
        .toList();
  }

  List<String> unverifiedKeys() {
    return new ArrayList<>(unverifiedKeys);
  }

  /** {@code key} is being sent to {@code method}: it is looked up under that method from now on. */
  void sending(long cycle, String key, PaymentMethod method) {
    sentKeys.put(key, new SentKey(cycle, key, method, null));
  }

  /** The send of {@code key} ended at {@code at}, with an answer or without one. */
  void sendEnded(String key, Instant at) {
    SentKey sent = sentKeys.get(key);
    if (sent != null) {
      sentKeys.put(key, new SentKey(sent.cycle(), key, sent.paymentMethod(), at));
    }
  }

  /** When this run's last send of {@code key} ended; null while in flight or when not known. */
  Instant sendEndedAt(String key) {
    SentKey sent = sentKeys.get(key);
    return sent == null ? null : sent.sentBy();
  }

  /**
   * The payment method {@code key} was sent to; null when it is not known (a key of a lost run's
   * earlier attempt): the gateway is then asked account-wide, never under a guessed method.
   */
  PaymentMethod sentWith(String key) {
    SentKey sent = sentKeys.get(key);
    return sent == null ? null : sent.paymentMethod();
  }

  /** Whether a lost run may have sent {@code key}: it is looked up before it is sent. */
  boolean unverified(String key) {
    return unverifiedKeys.contains(key);
  }

  /** The gateway has said what {@code key} did (or that it was never sent). */
  void verified(String key) {
    unverifiedKeys.remove(key);
  }
}
