package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/** The third table: its schema file, its creation alongside the others, its name. */
class PaymentEventTablesTest extends LocalDynamoDbTestBase {
  private final TableNames tables =
      new TableNames("billing_" + unique, "billing-history_" + unique, "payment-events_" + unique);

  @AfterEach
  void dropTables() {
    for (String table : List.of(tables.billing(), tables.history(), tables.paymentEvents())) {
      if (client.listTables().tableNames().contains(table)) {
        client.deleteTable(r -> r.tableName(table));
      }
    }
  }

  @Test
  void schemaKeysEventsByProviderAndIdWithDateSubscriptionAndTransactionIndexes() {
    CreateTableRequest request =
        BillingTables.schema(BillingTables.PAYMENT_EVENTS_SCHEMA, "staging-payment-events");

    assertThat(request.tableName()).isEqualTo("staging-payment-events");
    assertThat(request.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
    assertThat(request.keySchema()).containsExactly(hash("PK"));
    assertThat(request.attributeDefinitions())
        .extracting(a -> a.attributeName() + ":" + a.attributeTypeAsString())
        .containsExactly(
            "PK:S", "Date:S", "Time:S", "SubscriptionId:S", "Timestamp:S", "TransactionId:S");
    assertThat(request.globalSecondaryIndexes())
        .containsExactly(
            GlobalSecondaryIndex.builder()
                .indexName("ByDate")
                .keySchema(hash("Date"), range("Time"))
                .projection(Projection.builder().projectionType(ProjectionType.KEYS_ONLY).build())
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("BySubscription")
                .keySchema(hash("SubscriptionId"), range("Timestamp"))
                .projection(include("Type"))
                .build(),
            GlobalSecondaryIndex.builder()
                .indexName("ByTransaction")
                .keySchema(hash("TransactionId"), range("Timestamp"))
                .projection(include("Provider", "SubscriptionId", "Cycle", "IdempotencyKey"))
                .build());
  }

  @Test
  void schemaFileNamesTheDefaultTableAndTheReadmeShowsHowToApplyIt() throws Exception {
    try (InputStream schema =
            BillingTables.class.getResourceAsStream(BillingTables.PAYMENT_EVENTS_SCHEMA);
        InputStream readme = BillingTables.class.getResourceAsStream("schema/README.md")) {
      assertThat(new ObjectMapper().readTree(schema).get("TableName").asText())
          .isEqualTo(TableNames.DEFAULT_PAYMENT_EVENTS);
      assertThat(new String(readme.readAllBytes(), StandardCharsets.UTF_8))
          .contains("aws dynamodb create-table --cli-input-json file://payment-events.json")
          .contains(
              "aws dynamodb update-time-to-live --table-name payment-events \\\n"
                  + "    --time-to-live-specification \"Enabled=true, AttributeName="
                  + BillingTables.TTL_ATTRIBUTE
                  + "\"");
    }
  }

  @Test
  void createsThePaymentEventsTableWithTheOthersAndTurnsOnItsTtl() {
    BillingTables.createIfMissing(client, tables);
    BillingTables.createIfMissing(client, tables);

    var table = client.describeTable(r -> r.tableName(tables.paymentEvents())).table();
    assertThat(table.tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(table.globalSecondaryIndexes())
        .extracting(i -> i.indexName())
        .containsExactlyInAnyOrder("ByDate", "BySubscription", "ByTransaction");
    assertThat(
            client
                .describeTimeToLive(r -> r.tableName(tables.paymentEvents()))
                .timeToLiveDescription())
        .isEqualTo(
            TimeToLiveDescription.builder()
                .timeToLiveStatus(TimeToLiveStatus.ENABLED)
                .attributeName("ExpiresAt")
                .build());
  }

  @Test
  void refusesAnExistingPaymentEventsTableWithoutTheIndexes() {
    client.createTable(
        r ->
            r.tableName(tables.paymentEvents())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(hash("PK"))
                .attributeDefinitions(a -> a.attributeName("PK").attributeType("S")));

    assertThatThrownBy(() -> BillingTables.createIfMissing(client, tables))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "table "
                + tables.paymentEvents()
                + " exists without index(es) [ByDate,"
                + " BySubscription, ByTransaction]; add them (aws dynamodb update-table) or use another"
                + " table name");
  }

  @Test
  void namesDefaultTheThirdTableAndKeepItApartFromTheOthers() {
    assertThat(new TableNames("staging-billing", "staging-history").paymentEvents())
        .isEqualTo("payment-events");
    assertThat(TableNames.defaults())
        .isEqualTo(new TableNames("billing", "billing-history", "payment-events"));
    assertThatThrownBy(() -> new TableNames("billing", "billing-history", "billing"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the payment events table must differ from the other two, it is \"billing\"");
    assertThatThrownBy(() -> new TableNames("billing", "payment-events"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TableNames("billing", "billing-history", "pe"))
        .isInstanceOf(IllegalArgumentException.class);
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
