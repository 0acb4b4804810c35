package dev.billing.store;

import dev.billing.store.testing.LocalDynamoDb;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One in-process DynamoDB Local per test class, as the SDK's enhanced-client functional tests do:
 * starting it takes a second or two, so tests share it and isolate themselves by using tables and
 * ids of their own instead of a fresh instance.
 */
abstract class LocalDynamoDbTestBase {
  private static LocalDynamoDb local;
  protected static DynamoDbClient client;

  /**
   * Per test: table names, and ids that become ClientRequestTokens. DynamoDB remembers a token for
   * ten minutes across all tables, so two tests writing "create" for the same subscription id would
   * collide even on different tables.
   */
  protected final String unique = UUID.randomUUID().toString().substring(0, 8);

  @BeforeAll
  static void startLocalDynamoDb() {
    local = LocalDynamoDb.start();
    client = local.client();
  }

  @AfterAll
  static void stopLocalDynamoDb() {
    local.close();
  }

  protected TableNames uniqueTableNames() {
    return new TableNames("billing_" + unique, "billing-history_" + unique);
  }

  protected String id(String name) {
    return name + "-" + unique;
  }
}
