package dev.billing.store;

import static dev.billing.store.Attrs.num;
import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.putIfPresent;
import static dev.billing.store.Attrs.s;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.Money;
import dev.billing.domain.Receipt;
import java.time.Instant;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Receipt <-> receipt item. Receipts carry no Next and Last dates, so no GSI ever holds one. */
final class ReceiptItems {
  static final String TYPE = "RECEIPT";

  /** The table's TTL attribute: epoch seconds, as DynamoDB TTL requires. */
  static final String EXPIRES_AT = "ExpiresAt";

  private ReceiptItems() {}

  static Map<String, AttributeValue> item(Receipt receipt, Period retention) {
    Instant expiresAt =
        receipt.expiresAt() != null
            ? receipt.expiresAt()
            : expiresAt(receipt.processedAt(), retention);
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(Keys.PK, s(Keys.account(receipt.accountId())));
    item.put(
        Keys.SK,
        s(
            Keys.receipt(
                receipt.processedAt(), receipt.sku(), receipt.subscriptionId(), receipt.cycle())));
    item.put(Keys.TYPE, s(TYPE));
    item.put("AccountId", s(receipt.accountId()));
    item.put("SubscriptionId", s(receipt.subscriptionId()));
    item.put("Cycle", Attrs.n(receipt.cycle()));
    item.put("SKU", s(receipt.sku()));
    putIfPresent(item, "Email", receipt.email());
    item.put("ProcessedDate", s(Timestamps.format(receipt.processedAt())));
    item.put("ProcessedAmount", Attrs.n(receipt.amount().toPlainString()));
    item.put("Currency", s(receipt.amount().currency()));
    item.put("TransactionId", s(receipt.transactionId()));
    putIfPresent(item, "PaymentMask", receipt.paymentMask());
    item.put(EXPIRES_AT, Attrs.n(expiresAt.getEpochSecond()));
    return item;
  }

  /**
   * processedAt plus the retention in UTC calendar terms, truncated to the second (TTL's unit). UTC
   * because the retention is a data-keeping rule, not a customer-facing date.
   */
  static Instant expiresAt(Instant processedAt, Period retention) {
    return processedAt
        .atOffset(ZoneOffset.UTC)
        .plus(retention)
        .toInstant()
        .truncatedTo(ChronoUnit.SECONDS);
  }

  static Receipt fromItem(Map<String, AttributeValue> item) {
    return new Receipt(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        num(item, "Cycle"),
        str(item, "SKU"),
        optStr(item, "Email"),
        Money.parse(Attrs.decimal(item, "ProcessedAmount"), str(item, "Currency")),
        Timestamps.parse(str(item, "ProcessedDate")),
        str(item, "TransactionId"),
        optStr(item, "PaymentMask"),
        Instant.ofEpochSecond(num(item, EXPIRES_AT)));
  }
}
