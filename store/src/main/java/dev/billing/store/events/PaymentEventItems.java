package dev.billing.store.events;

import dev.billing.domain.PaymentEvent;
import dev.billing.store.BillingTables;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The payment-events item format (schema/payment-events.json, schema/README.md). */
final class PaymentEventItems {
  static final String PK = "PK";
  static final String PROVIDER = "Provider";
  static final String EVENT_ID = "EventId";
  static final String TYPE = "Type";
  static final String PAYMENT_EVENT_TYPE = "PaymentEventType";
  static final String SUBSCRIPTION_ID = "SubscriptionId";
  static final String CYCLE = "Cycle";
  static final String IDEMPOTENCY_KEY = "IdempotencyKey";
  static final String TRANSACTION_ID = "TransactionId";
  static final String TIMESTAMP = "Timestamp";
  static final String DATE = "Date";
  static final String TIME = "Time";
  static final String RECEIVED_AT = "ReceivedAt";
  static final String SUMMARY = "Summary";
  static final String EXPIRES_AT = BillingTables.TTL_ATTRIBUTE;

  private PaymentEventItems() {}

  /**
   * The provider scopes the key: the workflow contract promises unique event ids per provider only,
   * and a sandbox id must never shadow (or be shadowed by) a real provider's.
   */
  static String key(String provider, String eventId) {
    return provider + "#" + eventId;
  }

  static Map<String, AttributeValue> keyOf(String provider, String eventId) {
    return Map.of(PK, AttributeValue.fromS(key(provider, eventId)));
  }

  /** Provider names never contain '#' (StoredEvent checks), so the first one splits the key. */
  static String[] splitKey(String key) {
    int hash = key.indexOf('#');
    if (hash <= 0) {
      throw new IllegalStateException("payment event key without provider: " + key);
    }
    return new String[] {key.substring(0, hash), key.substring(hash + 1)};
  }

  static Map<String, AttributeValue> item(StoredEvent event, Duration retention) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(PK, s(key(event.provider(), event.eventId())));
    item.put(PROVIDER, s(event.provider()));
    item.put(EVENT_ID, s(event.eventId()));
    item.put(TYPE, s(event.type()));
    if (event.paymentEventType() != null) {
      item.put(PAYMENT_EVENT_TYPE, s(event.paymentEventType().name()));
    }
    // Absent, not empty: the subscription and transaction indexes stay sparse.
    putIfPresent(item, SUBSCRIPTION_ID, event.subscriptionId());
    if (event.cycle() != null) {
      item.put(CYCLE, AttributeValue.fromN(Long.toString(event.cycle())));
    }
    putIfPresent(item, IDEMPOTENCY_KEY, event.idempotencyKey());
    putIfPresent(item, TRANSACTION_ID, event.transactionId());
    item.put(TIMESTAMP, s(EventTimes.timestamp(event.occurredAt())));
    item.put(DATE, s(EventTimes.date(event.occurredAt())));
    item.put(TIME, s(EventTimes.time(event.occurredAt())));
    item.put(RECEIVED_AT, s(EventTimes.timestamp(event.receivedAt())));
    Map<String, AttributeValue> summary = new HashMap<>();
    event.summary().forEach((name, value) -> summary.put(name, s(value)));
    item.put(SUMMARY, AttributeValue.fromM(summary));
    item.put(
        EXPIRES_AT,
        AttributeValue.fromN(Long.toString(event.occurredAt().plus(retention).getEpochSecond())));
    return item;
  }

  static StoredEvent fromItem(Map<String, AttributeValue> item) {
    Map<String, String> summary = new HashMap<>();
    AttributeValue stored = item.get(SUMMARY);
    if (stored != null && stored.hasM()) {
      stored.m().forEach((name, value) -> summary.put(name, value.s()));
    }
    String paymentEventType = str(item, PAYMENT_EVENT_TYPE);
    return new StoredEvent(
        str(item, PROVIDER),
        str(item, EVENT_ID),
        str(item, TYPE),
        paymentEventType == null ? null : PaymentEvent.Type.valueOf(paymentEventType),
        str(item, SUBSCRIPTION_ID),
        num(item, CYCLE),
        str(item, IDEMPOTENCY_KEY),
        str(item, TRANSACTION_ID),
        EventTimes.parse(str(item, TIMESTAMP)),
        EventTimes.parse(str(item, RECEIVED_AT)),
        summary);
  }

  static EventRef ref(Map<String, AttributeValue> item) {
    String[] key = splitKey(str(item, PK));
    return new EventRef(key[0], key[1], EventTimes.parse(str(item, DATE), str(item, TIME)));
  }

  static SubscriptionEvent subscriptionEvent(Map<String, AttributeValue> item) {
    String[] key = splitKey(str(item, PK));
    return new SubscriptionEvent(
        key[0], key[1], str(item, TYPE), EventTimes.parse(str(item, TIMESTAMP)));
  }

  static ChargeOwner owner(Map<String, AttributeValue> item) {
    return new ChargeOwner(
        str(item, SUBSCRIPTION_ID), num(item, CYCLE), str(item, IDEMPOTENCY_KEY));
  }

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static void putIfPresent(Map<String, AttributeValue> item, String name, String value) {
    if (value != null) {
      item.put(name, s(value));
    }
  }

  private static String str(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    return value == null ? null : value.s();
  }

  private static Long num(Map<String, AttributeValue> item, String name) {
    AttributeValue value = item.get(name);
    return value == null ? null : Long.valueOf(value.n());
  }
}
