package dev.billing.store;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Fresh tables per test (created by the code under test), dropped afterwards. */
abstract class StoreTestBase extends LocalDynamoDbTestBase {
  protected TableNames tables;
  protected DynamoBillingStore store;

  @BeforeEach
  void createTables() {
    tables = uniqueTableNames();
    BillingTables.createIfMissing(client, tables);
    store = new DynamoBillingStore(client, tables, StoreSettings.defaults(Fixtures.KEY));
  }

  @AfterEach
  void dropTables() {
    client.deleteTable(r -> r.tableName(tables.billing()));
    client.deleteTable(r -> r.tableName(tables.history()));
  }

  /** The raw billing item, or an empty map. */
  protected Map<String, AttributeValue> billingItem(String pk, String sk) {
    return client
        .getItem(
            r ->
                r.tableName(tables.billing())
                    .consistentRead(true)
                    .key(Map.of("PK", AttributeValue.fromS(pk), "SK", AttributeValue.fromS(sk))))
        .item();
  }
}
