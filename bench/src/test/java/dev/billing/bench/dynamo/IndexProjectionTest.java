package dev.billing.bench.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.store.BillingTables;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;

class IndexProjectionTest {
  private static final CreateTableRequest BILLING =
      BillingTables.schema(BillingTables.BILLING_SCHEMA, "billing");

  /** The attributes the cost model priced index writes by before it read them from the schema. */
  @Test
  void theDueDateIndexesKeepTheirKeysTheTablesKeyAndTheirIncludedAttributes() {
    assertThat(IndexProjection.of(BILLING, "GSI-1").attributes())
        .containsExactlyInAnyOrder(
            "NextReminderDate",
            "LastReminderDate",
            "PK",
            "SK",
            "AccountId",
            "SubscriptionId",
            "SKU",
            "Email",
            "NextPaymentDate");
    assertThat(IndexProjection.of(BILLING, "GSI-2").attributes())
        .containsExactlyInAnyOrder(
            "NextPaymentDate",
            "LastPaymentDate",
            "PK",
            "SK",
            "AccountId",
            "SubscriptionId",
            "Email",
            "PaymentDay",
            "PaymentAmount",
            "Currency",
            "SKU",
            "PaymentDetails");
  }

  @Test
  void aProjectedItemHoldsOnlyWhatTheIndexKeeps() {
    Map<String, AttributeValue> item =
        Map.of(
            "PK",
            AttributeValue.fromS("ACC#a"),
            "SK",
            AttributeValue.fromS("SUB#s#SKU#k"),
            "NextReminderDate",
            AttributeValue.fromS("2026-01-01"),
            "Status",
            AttributeValue.fromS("ACTIVE"));
    assertThat(IndexProjection.of(BILLING, "GSI-1").project(item))
        .containsOnlyKeys("PK", "SK", "NextReminderDate");
  }
}
