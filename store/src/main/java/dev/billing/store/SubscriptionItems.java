package dev.billing.store;

import static dev.billing.store.Attrs.intNum;
import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.putIfPresent;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Subscription <-> subscription item (seed attribute names, plus what our schedule needs). */
final class SubscriptionItems {
  static final String TYPE = "SUBSCRIPTION";
  static final String VERSION = "Version";
  static final String LAST_CHANGE_ID = "LastChangeId";
  static final String UPDATED_DATE = "UpdatedDate";
  static final String LAST_PAYMENT_DATE = "LastPaymentDate";
  static final String LAST_REMINDER_DATE = "LastReminderDate";
  static final String NEXT_PAYMENT_DATE = "NextPaymentDate";
  static final String NEXT_REMINDER_DATE = "NextReminderDate";

  /** ISO-8601 duration; absent for subscriptions due at midnight (created before the spread). */
  static final String DUE_WINDOW = "DueWindow";

  private SubscriptionItems() {}

  static Map<String, AttributeValue> key(String accountId, String subscriptionId, String sku) {
    return Map.of(
        Keys.PK, s(Keys.account(accountId)), Keys.SK, s(Keys.subscription(subscriptionId, sku)));
  }

  /**
   * The full item: keys, Type and {@link #attributes}, with the two due dates written as their
   * sharded index keys ({@code <date>#<shard>}, see {@link DateKeySharding}).
   */
  static Map<String, AttributeValue> item(
      Subscription sub, String changeId, Instant updatedAt, DateKeySharding sharding) {
    Map<String, AttributeValue> item = new HashMap<>(attributes(sub, changeId, updatedAt));
    item.putAll(key(sub.accountId(), sub.subscriptionId(), sub.sku()));
    item.put(Keys.TYPE, s(TYPE));
    int shard = sharding.shardOf(sub.subscriptionId());
    if (sub.nextPaymentDate() != null) {
      item.put(NEXT_PAYMENT_DATE, s(sharding.key(sub.nextPaymentDate(), shard)));
    }
    if (sub.nextReminderDate() != null) {
      item.put(NEXT_REMINDER_DATE, s(sharding.key(sub.nextReminderDate(), shard)));
    }
    return item;
  }

  /**
   * Everything but the keys: also the history snapshot, which records the due dates as dates (the
   * shard suffix is an index artefact, like NEVER).
   *
   * @param changeId null when unknown (the previous state, which only serves the diff)
   * @param updatedAt null when unknown, as above
   */
  static Map<String, AttributeValue> attributes(
      Subscription sub, String changeId, Instant updatedAt) {
    BillingSchedule schedule = sub.schedule();
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("AccountId", s(sub.accountId()));
    item.put("SubscriptionId", s(sub.subscriptionId()));
    item.put("Email", s(sub.email()));
    item.put("SKU", s(sub.sku()));
    item.put("PaymentDay", Attrs.n(schedule.billingDay()));
    item.put("PaymentAmount", Attrs.n(sub.price().toPlainString()));
    item.put("Currency", s(sub.price().currency()));
    item.put(
        "PaymentDetails",
        AttributeValue.fromM(
            Map.of(
                "Token", s(sub.paymentMethod().token()), "Mask", s(sub.paymentMethod().mask()))));
    item.put(LAST_PAYMENT_DATE, s(Timestamps.formatOrNever(sub.lastPaymentAt())));
    item.put(LAST_REMINDER_DATE, s(Timestamps.formatOrNever(sub.lastReminderAt())));
    if (sub.nextPaymentDate() != null) {
      item.put(NEXT_PAYMENT_DATE, s(Timestamps.date(sub.nextPaymentDate())));
    }
    if (sub.nextReminderDate() != null) {
      item.put(NEXT_REMINDER_DATE, s(Timestamps.date(sub.nextReminderDate())));
    }
    item.put("CreatedDate", s(Timestamps.format(sub.createdAt())));
    item.put("Status", s(sub.status().name()));
    item.put("Term", s(schedule.term().name()));
    item.put("TimeZone", s(schedule.timeZone()));
    item.put("ReminderDaysBefore", Attrs.n(schedule.reminderDaysBefore()));
    item.put("AnchorMonth", s(schedule.anchorMonth().toString()));
    if (schedule.dueWindow() != null) {
      item.put(DUE_WINDOW, s(schedule.dueWindow().toString()));
    }
    item.put("Cycle", Attrs.n(sub.cycle()));
    item.put(VERSION, Attrs.n(sub.version()));
    putIfPresent(item, LAST_CHANGE_ID, changeId);
    putIfPresent(item, "RequestHash", sub.requestHash());
    item.put("Locale", s(sub.locale()));
    LifecycleAttributes.put(item, sub.lifecycle(), sub.price().currency());
    if (updatedAt != null) {
      item.put(UPDATED_DATE, s(Timestamps.format(updatedAt)));
    }
    return item;
  }

  /**
   * Reads a subscription item or a history snapshot (the same attributes; dates sharded or not).
   */
  static Subscription fromItem(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> details = Attrs.map(item, "PaymentDetails");
    String nextPayment = optStr(item, NEXT_PAYMENT_DATE);
    String nextReminder = optStr(item, NEXT_REMINDER_DATE);
    String dueWindow = optStr(item, DUE_WINDOW);
    return new Subscription(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        str(item, "SKU"),
        Money.parse(Attrs.decimal(item, "PaymentAmount"), str(item, "Currency")),
        str(item, "Email"),
        new PaymentMethod(str(details, "Token"), str(details, "Mask")),
        new BillingSchedule(
            YearMonth.parse(str(item, "AnchorMonth")),
            intNum(item, "PaymentDay"),
            Term.valueOf(str(item, "Term")),
            str(item, "TimeZone"),
            intNum(item, "ReminderDaysBefore"),
            dueWindow == null ? null : Duration.parse(dueWindow)),
        SubscriptionStatus.valueOf(str(item, "Status")),
        num(item, "Cycle"),
        nextReminder == null ? null : DateKeySharding.dateOf(nextReminder),
        nextPayment == null ? null : DateKeySharding.dateOf(nextPayment),
        Timestamps.parseOrNever(optStr(item, LAST_REMINDER_DATE)),
        Timestamps.parseOrNever(optStr(item, LAST_PAYMENT_DATE)),
        Timestamps.parse(str(item, "CreatedDate")),
        num(item, VERSION),
        optStr(item, "RequestHash"),
        optStr(item, "Locale"),
        LifecycleAttributes.read(item, str(item, "Currency")));
  }
}
