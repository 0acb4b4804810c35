package dev.billing.activities;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import dev.billing.store.BillingTables;
import dev.billing.store.DynamoBillingStore;
import dev.billing.store.NotificationLog;
import dev.billing.store.StoreSettings;
import dev.billing.store.TableNames;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real store and notification log against an in-process DynamoDB Local with fresh tables; close
 * it after each test.
 */
final class LocalDynamo implements AutoCloseable {
  // Any 32 bytes: page tokens are signed but never leave the test.
  private static final byte[] PAGE_TOKEN_KEY =
      "activities-test-page-token-key-32".getBytes(StandardCharsets.UTF_8);

  private final AmazonDynamoDBLocal local = DynamoDBEmbedded.create(true);
  final DynamoDbClient client;
  final DynamoBillingStore store;
  final NotificationLog notificationLog;

  LocalDynamo() {
    client = local.dynamoDbClient();
    TableNames names = TableNames.defaults();
    BillingTables.createIfMissing(client, names);
    store = new DynamoBillingStore(client, names, StoreSettings.defaults(PAGE_TOKEN_KEY));
    notificationLog = new NotificationLog(client, names.billing(), NotificationLog.DEFAULT_RETENTION);
  }

  @Override
  public void close() {
    local.shutdown();
  }
}
