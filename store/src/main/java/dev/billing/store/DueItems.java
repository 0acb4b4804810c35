package dev.billing.store;

import static dev.billing.store.Attrs.optStr;
import static dev.billing.store.Attrs.str;

import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** GSI entries: only the projected attributes (see schema/billing.json) are there to read. */
final class DueItems {
  private DueItems() {}

  static DueReminder reminder(Map<String, AttributeValue> item) {
    String nextPayment = optStr(item, SubscriptionItems.NEXT_PAYMENT_DATE);
    return new DueReminder(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        str(item, "SKU"),
        str(item, "Email"),
        DateKeySharding.dateOf(str(item, SubscriptionItems.NEXT_REMINDER_DATE)),
        nextPayment == null ? null : DateKeySharding.dateOf(nextPayment),
        Timestamps.parseOrNever(str(item, SubscriptionItems.LAST_REMINDER_DATE)));
  }

  static DuePayment payment(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> details = Attrs.map(item, "PaymentDetails");
    return new DuePayment(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        str(item, "SKU"),
        str(item, "Email"),
        Attrs.intNum(item, "PaymentDay"),
        Money.parse(Attrs.decimal(item, "PaymentAmount"), str(item, "Currency")),
        new PaymentMethod(str(details, "Token"), str(details, "Mask")),
        DateKeySharding.dateOf(str(item, SubscriptionItems.NEXT_PAYMENT_DATE)),
        Timestamps.parseOrNever(str(item, SubscriptionItems.LAST_PAYMENT_DATE)));
  }
}
