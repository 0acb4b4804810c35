package dev.billing.store;

import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.MerchantEvent;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.MerchantEvents;
import dev.billing.domain.RecordInput;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The outbox items of one change, one per event {@link MerchantEvents#of} derives from it, under
 * the subscription's partition: {@code PK = SUB#<subscription>}, {@code SK = EVT#<version, 12
 * digits>#<n, 2 digits>}. Subscriptions live under {@code ACC#}, so no query of an account's items
 * meets them.
 */
final class OutboxItems {
  static final String TYPE = "EVENT";
  static final String SK_PREFIX = "EVT#";

  /** GSI keys: present on every event item only, so the indexes hold nothing else. */
  static final String EVENT_ACCOUNT = "EventAccount";

  static final String EVENT_TYPE_SHARD = "EventTypeShard";
  static final String EVENT_AT = "EventAt";

  /** {@code <day of the change>#<shard>} while delivery owes the event: a sparse index. */
  static final String UNDELIVERED = "Undelivered";

  static final String BY_ACCOUNT = "EventsByAccount";
  static final String BY_TYPE = "EventsByType";
  static final String BY_UNDELIVERED = "EventsUndelivered";

  private static final String ID_PREFIX = "evt_";

  private OutboxItems() {}

  static String id(String subscriptionId, long version, int sequence) {
    return ID_PREFIX + subscriptionId + "_" + version + "_" + sequence;
  }

  static Map<String, AttributeValue> key(String subscriptionId, long version, int sequence) {
    return Map.of(
        Keys.PK,
        s(Keys.history(subscriptionId)),
        Keys.SK,
        s(SK_PREFIX + String.format("%012d", version) + "#" + String.format("%02d", sequence)));
  }

  /**
   * The key of an event id, or null when the id is not one of ours. Subscription ids may hold '_',
   * so the version and the sequence are read from the right.
   */
  static Map<String, AttributeValue> keyOf(String eventId) {
    if (eventId == null || !eventId.startsWith(ID_PREFIX)) {
      return null;
    }
    int last = eventId.lastIndexOf('_');
    int before = last <= 0 ? -1 : eventId.lastIndexOf('_', last - 1);
    if (before < ID_PREFIX.length()) {
      return null;
    }
    String subscriptionId = eventId.substring(ID_PREFIX.length(), before);
    try {
      long version = Long.parseLong(eventId.substring(before + 1, last));
      int sequence = Integer.parseInt(eventId.substring(last + 1));
      if (version < 1
          || sequence < 0
          || sequence > 99
          || subscriptionId.isEmpty()
          || subscriptionId.indexOf('#') >= 0
          || !id(subscriptionId, version, sequence).equals(eventId)) {
        return null; // "+1", "01": another spelling of a number is another id
      }
      return key(subscriptionId, version, sequence);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The indexes' sort key: the change's time, then the event's own key, so that events of one
   * millisecond still sort the same way on every read (a page token's position depends on it).
   */
  static String eventAt(String at, String subscriptionId, long version, int sequence) {
    return at
        + "#"
        + subscriptionId
        + "#"
        + key(subscriptionId, version, sequence).get(Keys.SK).s();
  }

  static String typeShard(MerchantEventType type, int shard) {
    return type.wireName() + "#" + shard;
  }

  static List<Map<String, AttributeValue>> items(
      RecordInput change, DateKeySharding sharding, Period receiptRetention) {
    List<MerchantEvent> events = MerchantEvents.of(change);
    List<Map<String, AttributeValue>> items = new ArrayList<>(events.size());
    String subscriptionId = change.next().subscriptionId();
    long version = change.next().version();
    int shard = sharding.shardOf(subscriptionId);
    String at = Timestamps.format(change.at());
    String day = Timestamps.date(change.at().atZone(ZoneOffset.UTC).toLocalDate());
    for (int n = 0; n < events.size(); n++) {
      MerchantEvent event = events.get(n);
      Map<String, AttributeValue> item = new HashMap<>(key(subscriptionId, version, n));
      item.put(Keys.TYPE, s(TYPE));
      item.put("EventId", s(id(subscriptionId, version, n)));
      item.put("EventType", s(event.type().wireName()));
      item.put("AccountId", s(change.next().accountId()));
      item.put("SubscriptionId", s(subscriptionId));
      item.put("Version", Attrs.n(version));
      item.put("Sequence", Attrs.n(n));
      item.put("CreatedAt", s(at));
      item.put(EVENT_ACCOUNT, s(change.next().accountId()));
      item.put(EVENT_TYPE_SHARD, s(typeShard(event.type(), shard)));
      item.put(EVENT_AT, s(eventAt(at, subscriptionId, version, n)));
      item.put(UNDELIVERED, s(day + "#" + shard));
      item.put(
          "Subscription",
          AttributeValue.fromM(
              SubscriptionItems.attributes(event.subscription(), change.changeId(), change.at())));
      if (event.period() != null) {
        item.put("Period", AttributeValue.fromM(PeriodItems.item(event.period())));
      }
      if (event.receipt() != null) {
        item.put(
            "Receipt", AttributeValue.fromM(ReceiptItems.item(event.receipt(), receiptRetention)));
      }
      items.add(item);
    }
    return items;
  }

  static OutboxEvent fromItem(Map<String, AttributeValue> item) {
    AttributeValue period = item.get("Period");
    AttributeValue receipt = item.get("Receipt");
    return new OutboxEvent(
        str(item, "EventId"),
        MerchantEventType.fromWireName(str(item, "EventType")),
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        num(item, "Version"),
        Attrs.intNum(item, "Sequence"),
        Timestamps.parse(str(item, "CreatedAt")),
        SubscriptionItems.fromItem(Attrs.map(item, "Subscription")),
        period == null ? null : PeriodItems.fromItem(period.m()),
        receipt == null ? null : ReceiptItems.fromItem(receipt.m()),
        optStr(item, UNDELIVERED));
  }
}
