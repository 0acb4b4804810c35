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
    String nextPayment = optStr(item, "NextPaymentDate");
    return new DueReminder(
        str(item, "AccountId"),
        str(item, "SubscriptionId"),
        str(item, "SKU"),
        str(item, "Email"),
        Timestamps.parseDate(str(item, "NextReminderDate")),
        nextPayment == null ? null : Timestamps.parseDate(nextPayment),
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
        Timestamps.parseDate(str(item, "NextPaymentDate")),
        Timestamps.parseOrNever(str(item, SubscriptionItems.LAST_PAYMENT_DATE)));
  }
}
