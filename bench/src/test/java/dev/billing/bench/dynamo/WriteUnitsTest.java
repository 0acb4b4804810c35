package dev.billing.bench.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.store.BillingTables;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;

class WriteUnitsTest {
  private static final CreateTableRequest BILLING =
      BillingTables.schema(BillingTables.BILLING_SCHEMA, "billing");

  @Test
  void aTransactionalWriteCostsTwoUnitsPerKilobyteOfTheLargerVersion() {
    assertThat(WriteUnits.transactional(null, item(200))).isEqualTo(2);
    assertThat(WriteUnits.transactional(null, item(1500))).isEqualTo(4);
    assertThat(WriteUnits.transactional(item(1500), item(200))).isEqualTo(4);
    assertThat(WriteUnits.transactional(item(200), null)).isEqualTo(2);
  }

  @Test
  void anItemWithoutAnIndexsKeyIsInNoIndex() {
    assertThat(WriteUnits.indexes(BILLING, null, item(200))).isZero();
  }

  @Test
  void aNewEventIsWrittenToBothFullIndexesAndTheKeysOnlyOne() {
    Map<String, AttributeValue> event = item(1500);
    event.put("EventAccount", AttributeValue.fromS("acc-1"));
    event.put("EventTypeShard", AttributeValue.fromS("payment.succeeded#3"));
    event.put("EventAt", AttributeValue.fromS("2026-01-01T00:00:00Z#sub_1#EVT#000000000002#00"));
    event.put("Undelivered", AttributeValue.fromS("2026-01-01#3"));

    // EventsByAccount and EventsByType hold all of it (2 KB each), EventsUndelivered its keys.
    assertThat(WriteUnits.indexes(BILLING, null, event)).isEqualTo(2 + 2 + 1);
    Map<String, AttributeValue> delivered = new HashMap<>(event);
    delivered.remove("Undelivered");
    assertThat(WriteUnits.indexes(BILLING, null, delivered)).isEqualTo(2 + 2);
  }

  @Test
  void aMovedIndexKeyIsADeleteAndAPutAndAnUntouchedProjectionNoWrite() {
    Map<String, AttributeValue> before = item(200);
    before.put("NextPaymentDate", AttributeValue.fromS("2026-01-01#3"));
    before.put("LastPaymentDate", AttributeValue.fromS("never"));
    before.put("AccountId", AttributeValue.fromS("acc-1"));
    Map<String, AttributeValue> moved = new HashMap<>(before);
    moved.put("NextPaymentDate", AttributeValue.fromS("2026-02-01#3"));
    assertThat(WriteUnits.indexes(BILLING, before, moved)).isEqualTo(2);

    Map<String, AttributeValue> unprojected = new HashMap<>(before);
    unprojected.put("Padding", AttributeValue.fromS("y"));
    assertThat(WriteUnits.indexes(BILLING, before, unprojected)).isZero();

    Map<String, AttributeValue> projected = new HashMap<>(before);
    projected.put("AccountId", AttributeValue.fromS("acc-2"));
    assertThat(WriteUnits.indexes(BILLING, before, projected)).isEqualTo(1);
    assertThat(WriteUnits.indexes(BILLING, before, null)).isEqualTo(1);
  }

  /** A table item of about {@code bytes} bytes, in no index. */
  private static Map<String, AttributeValue> item(int bytes) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("PK", AttributeValue.fromS("ACC#1"));
    item.put("SK", AttributeValue.fromS("X"));
    item.put("Padding", AttributeValue.fromS("x".repeat(bytes - 16)));
    return item;
  }
}
