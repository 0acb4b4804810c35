package dev.billing.activities;

import dev.billing.store.DynamoBillingStore;
import dev.billing.store.NotificationLog;
import dev.billing.store.TableNames;
import dev.billing.store.testing.LocalDynamoDb;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real store and notification log against an in-process DynamoDB Local with fresh tables; close
 * it after each test.
 */
final class LocalDynamo implements AutoCloseable {
  private final LocalDynamoDb local = LocalDynamoDb.start();
  final DynamoDbClient client;
  final DynamoBillingStore store;
  final NotificationLog notificationLog;
  final TableNames tables;

  LocalDynamo() {
    client = local.client();
    TableNames names = local.createTables();
    tables = names;
    store = local.store(names);
    notificationLog =
        new NotificationLog(client, names.billing(), NotificationLog.DEFAULT_RETENTION);
  }

  @Override
  public void close() {
    local.close();
  }
}
