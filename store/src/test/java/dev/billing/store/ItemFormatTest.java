package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.Receipt;
import dev.billing.store.HistoryEntry.FieldChange;
import java.time.Instant;
import java.time.Period;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Key shapes, timestamp format, TTL arithmetic and the history diff, without a database. */
class ItemFormatTest {

  @Test
  void timestampsAreFixedWidthUtcWithMillis() {
    assertThat(Timestamps.format(Instant.parse("2026-03-05T07:08:09Z")))
        .isEqualTo("2026-03-05T07:08:09.000Z");
    assertThat(Timestamps.format(Instant.parse("2026-03-05T07:08:09.123456789Z")))
        .isEqualTo("2026-03-05T07:08:09.123Z");
    assertThat(Timestamps.parse("2026-03-05T07:08:09.120Z"))
        .isEqualTo(Instant.parse("2026-03-05T07:08:09.12Z"));
    assertThat(Timestamps.parseOrNever("NEVER")).isNull();
    assertThat(Timestamps.formatOrNever(null)).isEqualTo("NEVER");
  }

  @Test
  void keysFollowTheSeedShapes() {
    assertThat(Keys.account("a-1")).isEqualTo("ACC#a-1");
    assertThat(Keys.subscription("s-1", "SKU-PRO")).isEqualTo("SUB#s-1#SKU#SKU-PRO");
    assertThat(Keys.receipt(Instant.parse("2026-02-15T08:30:00Z"), "SKU-PRO", "s-1", 1))
        .isEqualTo("REC#2026-02-15T08:30:00.000Z#SKU#SKU-PRO#s-1#1");
    assertThat(Keys.period("s-1", 12)).isEqualTo("PER#s-1#00000012");
    assertThat(Keys.history("s-1")).isEqualTo("SUB#s-1");
    assertThat(Keys.historyEntry(Instant.parse("2026-02-15T08:30:00Z"), 7))
        .isEqualTo("2026-02-15T08:30:00.000Z#000000000007");
    assertThat(Keys.historyTime("2026-02-15T08:30:00.000Z#000000000007"))
        .isEqualTo(Instant.parse("2026-02-15T08:30:00Z"));
  }

  @Test
  void idsWithTheKeySeparatorAreRejected() {
    assertThatThrownBy(() -> Keys.account("a#1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("accountId must be non-empty and must not contain '#': a#1");
    assertThatThrownBy(() -> Keys.subscriptionPrefix(""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void receiptsExpireRetentionAfterProcessingInUtcCalendarMonthsTruncatedToSeconds() {
    assertThat(
            ReceiptItems.expiresAt(Instant.parse("2026-01-31T10:15:30.500Z"), Period.ofMonths(12)))
        .isEqualTo(Instant.ofEpochSecond(1801390530L)); // 2027-01-31T10:15:30Z
    assertThat(
            ReceiptItems.expiresAt(Instant.parse("2024-02-29T23:59:59.999Z"), Period.ofMonths(12)))
        .isEqualTo(Instant.ofEpochSecond(1740787199L)); // 2025-02-28T23:59:59Z
    assertThat(ReceiptItems.expiresAt(Instant.parse("2026-01-31T00:00:00Z"), Period.ofMonths(1)))
        .isEqualTo(Instant.ofEpochSecond(1772236800L)); // 2026-02-28T00:00:00Z
  }

  @Test
  void receiptItemCarriesTheTtlInEpochSecondsAndKeepsAGivenExpiry() {
    Receipt receipt =
        Fixtures.receipt(
            Fixtures.subscription("a-1", "s-1"),
            1,
            Instant.parse("2026-01-31T10:15:30.500Z"),
            "txn-1");

    assertThat(ReceiptItems.item(receipt, Period.ofMonths(12)).get("ExpiresAt"))
        .isEqualTo(AttributeValue.fromN("1801390530"));
    Receipt kept =
        new Receipt(
            receipt.accountId(),
            receipt.subscriptionId(),
            1,
            receipt.sku(),
            receipt.email(),
            receipt.amount(),
            receipt.processedAt(),
            "txn-1",
            receipt.paymentMask(),
            Instant.parse("2026-06-01T00:00:00Z"));
    assertThat(ReceiptItems.item(kept, Period.ofMonths(12)).get("ExpiresAt"))
        .isEqualTo(AttributeValue.fromN("1780272000"));
  }

  @Test
  void diffListsChangedLeavesSortedAndSkipsIgnoredFields() {
    Map<String, AttributeValue> before =
        Map.of(
            "Status", AttributeValue.fromS("ACTIVE"),
            "Version", AttributeValue.fromN("1"),
            "Email", AttributeValue.fromS("ada@example.com"),
            "NextPaymentDate", AttributeValue.fromS("2026-02-15"),
            "PaymentDetails",
                AttributeValue.fromM(
                    Map.of(
                        "Token",
                        AttributeValue.fromS("pm_1"),
                        "Mask",
                        AttributeValue.fromS("Visa 4242"))));
    Map<String, AttributeValue> after =
        Map.of(
            "Status", AttributeValue.fromS("PAST_DUE"),
            "Version", AttributeValue.fromN("2"),
            "Email", AttributeValue.fromS("ada@example.com"),
            "LastPaymentDate", AttributeValue.fromS("2026-02-15T08:30:00.000Z"),
            "PaymentDetails",
                AttributeValue.fromM(
                    Map.of(
                        "Token",
                        AttributeValue.fromS("pm_2"),
                        "Mask",
                        AttributeValue.fromS("Visa 4242"))));

    assertThat(ItemDiff.between(before, after, Set.of("Version")))
        .containsExactly(
            new FieldChange("LastPaymentDate", null, "2026-02-15T08:30:00.000Z"),
            new FieldChange("NextPaymentDate", "2026-02-15", null),
            new FieldChange("PaymentDetails.Token", "pm_1", "pm_2"),
            new FieldChange("Status", "ACTIVE", "PAST_DUE"));
  }
}
