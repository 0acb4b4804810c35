package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

class BillingTablesTest extends LocalDynamoDbTestBase {
  private final TableNames tables = uniqueTableNames();

  @AfterEach
  void dropTables() {
    for (String table : List.of(tables.billing(), tables.history())) {
      if (client.listTables().tableNames().contains(table)) {
        client.deleteTable(r -> r.tableName(table));
      }
    }
  }

  @Test
  void billingSchemaHasTheSeedKeysAndSparseIndexes() {
    CreateTableRequest request =
        BillingTables.schema(BillingTables.BILLING_SCHEMA, "staging-billing");

    assertThat(request.tableName()).isEqualTo("staging-billing");
    assertThat(request.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(request.keySchema()).containsExactly(hash("PK"), range("SK"));
    assertThat(request.attributeDefinitions())
        .extracting(a -> a.attributeName() + ":" + a.attributeTypeAsString())
        .containsExactly(
            "PK:S",
            "SK:S",
            "NextReminderDate:S",
            "LastReminderDate:S",
            "NextPaymentDate:S",
            "LastPaymentDate:S",
            "EventAccount:S",
            "EventTypeShard:S",
            "EventAt:S",
            "Undelivered:S");
    assertThat(request.globalSecondaryIndexes())
        .containsExactly(
            GlobalSecondaryIndex.builder()
                .indexName("GSI-1")
                .keySchema(hash("NextReminderDate"), range("LastReminderDate"))
                .projection(
                    include("AccountId", "SubscriptionId", "SKU", "Email", "NextPaymentDate"))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("GSI-2")
                .keySchema(hash("NextPaymentDate"), range("LastPaymentDate"))
                .projection(
                    include(
                        "AccountId",
                        "SubscriptionId",
                        "Email",
                        "PaymentDay",
                        "PaymentAmount",
                        "Currency",
                        "SKU",
                        "PaymentDetails"))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("EventsByAccount")
                .keySchema(hash("EventAccount"), range("EventAt"))
                .projection(p -> p.projectionType(ProjectionType.ALL))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("EventsByType")
                .keySchema(hash("EventTypeShard"), range("EventAt"))
                .projection(p -> p.projectionType(ProjectionType.ALL))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("EventsUndelivered")
                .keySchema(hash("Undelivered"), range("EventAt"))
                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
                .build());
  }

  @Test
  void historySchemaIsKeysOnly() {
    CreateTableRequest request =
        BillingTables.schema(BillingTables.HISTORY_SCHEMA, "staging-history");

    assertThat(request.tableName()).isEqualTo("staging-history");
    assertThat(request.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(request.keySchema()).containsExactly(hash("PK"), range("SK"));
    assertThat(request.hasGlobalSecondaryIndexes()).isFalse();
  }

  @Test
  void schemaFilesNameTheDefaultTablesForTheCli() throws Exception {
    ObjectMapper json = new ObjectMapper();
    try (InputStream billing =
            BillingTables.class.getResourceAsStream(BillingTables.BILLING_SCHEMA);
        InputStream history =
            BillingTables.class.getResourceAsStream(BillingTables.HISTORY_SCHEMA)) {
      assertThat(json.readTree(billing).get("TableName").asText())
          .isEqualTo(TableNames.DEFAULT_BILLING);
      assertThat(json.readTree(history).get("TableName").asText())
          .isEqualTo(TableNames.DEFAULT_HISTORY);
    }
  }

  @Test
  void readmeEnablesTtlOnTheAttributeTheStoreWrites() throws Exception {
    try (InputStream in = BillingTables.class.getResourceAsStream("schema/README.md")) {
      String readme = new String(in.readAllBytes(), StandardCharsets.UTF_8);

      assertThat(readme)
          .contains("aws dynamodb create-table --cli-input-json file://billing.json")
          .contains("aws dynamodb create-table --cli-input-json file://billing-history.json")
          .contains("aws dynamodb update-time-to-live --table-name billing")
          .contains("\"Enabled=true, AttributeName=" + BillingTables.TTL_ATTRIBUTE + "\"");
    }
  }

  @Test
  void createsBothTablesActiveWithIndexesAndTtl() {
    BillingTables.createIfMissing(client, tables);

    TableDescription billing = describe(tables.billing());
    assertThat(billing.tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(billing.globalSecondaryIndexes())
        .extracting(i -> i.indexName())
        .containsExactlyInAnyOrder(
            "GSI-1", "GSI-2", "EventsByAccount", "EventsByType", "EventsUndelivered");
    assertThat(describe(tables.history()).tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(ttl(tables.billing()))
        .isEqualTo(
            TimeToLiveDescription.builder()
                .timeToLiveStatus(TimeToLiveStatus.ENABLED)
                .attributeName("ExpiresAt")
                .build());
    assertThat(ttl(tables.history()).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.DISABLED);
  }

  @Test
  void secondCallKeepsTablesAndTheirItems() {
    BillingTables.createIfMissing(client, tables);
    Instant created = describe(tables.billing()).creationDateTime();
    Map<String, AttributeValue> item =
        Map.of("PK", AttributeValue.fromS("ACC#a-1"), "SK", AttributeValue.fromS("SUB#s-1#SKU#x"));
    client.putItem(r -> r.tableName(tables.billing()).item(item));

    BillingTables.createIfMissing(client, tables);

    assertThat(describe(tables.billing()).creationDateTime()).isEqualTo(created);
    assertThat(client.getItem(r -> r.tableName(tables.billing()).key(item)).item()).isEqualTo(item);
    assertThat(ttl(tables.billing()).timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
  }

  @Test
  void refusesAnExistingBillingTableWithoutTheIndexes() {
    client.createTable(
        BillingTables.schema(BillingTables.BILLING_SCHEMA, tables.billing()).toBuilder()
            .globalSecondaryIndexes((List<GlobalSecondaryIndex>) null)
            .attributeDefinitions(
                a -> a.attributeName("PK").attributeType("S"),
                a -> a.attributeName("SK").attributeType("S"))
            .build());

    assertThatThrownBy(() -> BillingTables.createIfMissing(client, tables))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "table "
                + tables.billing()
                + " exists without index(es) [GSI-1, GSI-2, EventsByAccount, EventsByType,"
                + " EventsUndelivered];"
                + " add them (aws dynamodb update-table) or use another table name");
  }

  @Test
  void refusesTtlOnAnotherAttribute() {
    client.createTable(BillingTables.schema(BillingTables.BILLING_SCHEMA, tables.billing()));
    client.updateTimeToLive(
        r ->
            r.tableName(tables.billing())
                .timeToLiveSpecification(s -> s.enabled(true).attributeName("DeleteAfter")));

    assertThatThrownBy(() -> BillingTables.createIfMissing(client, tables))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "table "
                + tables.billing()
                + " has TTL ENABLED on attribute DeleteAfter;"
                + " the store needs it on ExpiresAt");
  }

  private static TableDescription describe(String table) {
    return client.describeTable(r -> r.tableName(table)).table();
  }

  private static TimeToLiveDescription ttl(String table) {
    return client.describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription();
  }

  private static KeySchemaElement hash(String name) {
    return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
  }

  private static KeySchemaElement range(String name) {
    return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
  }

  private static Projection include(String... attributes) {
    return Projection.builder()
        .projectionType(ProjectionType.INCLUDE)
        .nonKeyAttributes(attributes)
        .build();
  }
}
