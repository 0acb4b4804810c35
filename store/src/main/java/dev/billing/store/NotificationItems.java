package dev.billing.store;

import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.putIfPresent;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import java.time.Instant;
import java.time.Period;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * LoggedNotification <-> message item of the billing table. Like receipts, message items carry no
 * Next/Last dates, so neither due-date index ever holds one.
 */
final class NotificationItems {
  static final String TYPE = "MESSAGE";

  private NotificationItems() {}

  static Map<String, AttributeValue> key(
      String accountId, String subscriptionId, String messageId) {
    return Map.of(
        Keys.PK, s(Keys.account(accountId)),
        Keys.SK, s(Keys.message(subscriptionId, messageId)));
  }

  static Map<String, AttributeValue> item(LoggedNotification n, Period retention) {
    Instant expiresAt =
        n.expiresAt() != null ? n.expiresAt() : ReceiptItems.expiresAt(n.at(), retention);
    Map<String, AttributeValue> item =
        new HashMap<>(key(n.accountId(), n.subscriptionId(), n.messageId()));
    item.put(Keys.TYPE, s(TYPE));
    item.put("AccountId", s(n.accountId()));
    item.put("SubscriptionId", s(n.subscriptionId()));
    item.put("MessageId", s(n.messageId()));
    item.put("Cycle", Attrs.n(n.cycle()));
    item.put("Kind", s(n.kind()));
    item.put("Recipient", s(n.recipient()));
    item.put("Status", s(n.status().name()));
    item.put("NotifiedDate", s(Timestamps.format(n.at())));
    item.put("AnsweredDate", s(Timestamps.format(n.answeredAt())));
    putIfPresent(item, "Detail", n.detail());
    item.put(ReceiptItems.EXPIRES_AT, Attrs.n(expiresAt.getEpochSecond()));
    return item;
  }

  static LoggedNotification fromItem(Map<String, AttributeValue> item) {
    return new LoggedNotification(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        str(item, "MessageId"),
        num(item, "Cycle"),
        str(item, "Kind"),
        str(item, "Recipient"),
        NotificationStatus.valueOf(str(item, "Status")),
        Timestamps.parse(str(item, "NotifiedDate")),
        Timestamps.parse(str(item, "AnsweredDate")),
        optStr(item, "Detail"),
        Instant.ofEpochSecond(num(item, ReceiptItems.EXPIRES_AT)));
  }
}
