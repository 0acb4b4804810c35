package dev.billing.store;

import static dev.billing.store.Attrs.intNum;
import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.putIfPresent;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Period <-> period item: one per billing cycle, overwritten as the cycle progresses. */
final class PeriodItems {
  static final String TYPE = "PERIOD";

  private PeriodItems() {}

  static Map<String, AttributeValue> item(Period period) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(Keys.PK, s(Keys.account(period.accountId())));
    item.put(Keys.SK, s(Keys.period(period.subscriptionId(), period.cycle())));
    item.put(Keys.TYPE, s(TYPE));
    item.put("AccountId", s(period.accountId()));
    item.put("SubscriptionId", s(period.subscriptionId()));
    item.put("Cycle", Attrs.n(period.cycle()));
    item.put("Status", s(period.status().name()));
    item.put("DueDate", s(Timestamps.date(period.dueDate())));
    item.put("Amount", Attrs.n(period.amount().toPlainString()));
    item.put("Currency", s(period.amount().currency()));
    item.put("Attempts", Attrs.n(period.attempts()));
    putIfPresent(item, "TransactionId", period.transactionId());
    putIfPresent(item, "FailureCode", period.failureCode());
    putIfPresent(item, "FailureMessage", period.failureMessage());
    if (period.refunded() != null) {
      item.put("RefundedAmount", Attrs.n(period.refunded().toPlainString()));
    }
    if (!period.refunds().isEmpty()) {
      item.put(
          "Refunds",
          AttributeValue.fromL(
              period.refunds().stream().map(r -> AttributeValue.fromM(refundItem(r))).toList()));
    }
    item.put("UpdatedDate", s(Timestamps.format(period.updatedAt())));
    return item;
  }

  private static Map<String, AttributeValue> refundItem(PeriodRefund refund) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("Key", s(refund.idempotencyKey()));
    putIfPresent(item, "RequestId", refund.requestId());
    item.put("TransactionId", s(refund.transactionId()));
    item.put("Amount", Attrs.n(refund.amount().toPlainString()));
    item.put("SentAt", s(Timestamps.format(refund.sentAt())));
    putIfPresent(item, "RefundId", refund.refundId());
    return item;
  }

  private static List<PeriodRefund> refunds(Map<String, AttributeValue> item, String currency) {
    AttributeValue list = item.get("Refunds");
    if (list == null || !list.hasL()) {
      return List.of();
    }
    return list.l().stream()
        .map(AttributeValue::m)
        .map(
            r ->
                new PeriodRefund(
                    str(r, "Key"),
                    optStr(r, "RequestId"),
                    str(r, "TransactionId"),
                    Money.parse(Attrs.decimal(r, "Amount"), currency),
                    Timestamps.parse(str(r, "SentAt")),
                    optStr(r, "RefundId")))
        .toList();
  }

  static Period fromItem(Map<String, AttributeValue> item) {
    return new Period(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        num(item, "Cycle"),
        Timestamps.parseDate(str(item, "DueDate")),
        Money.parse(Attrs.decimal(item, "Amount"), str(item, "Currency")),
        PeriodStatus.valueOf(str(item, "Status")),
        intNum(item, "Attempts"),
        optStr(item, "TransactionId"),
        optStr(item, "FailureCode"),
        optStr(item, "FailureMessage"),
        Timestamps.parse(str(item, "UpdatedDate")),
        item.containsKey("RefundedAmount")
            ? Money.parse(Attrs.decimal(item, "RefundedAmount"), str(item, "Currency"))
            : null,
        refunds(item, str(item, "Currency")));
  }
}
