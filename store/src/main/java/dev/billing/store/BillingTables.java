package dev.billing.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates the store's tables from schema/*.json, the same files operators apply with {@code aws
 * dynamodb create-table --cli-input-json} (see schema/README.md).
 */
public final class BillingTables {
  public static final String BILLING_SCHEMA = "schema/billing.json";
  public static final String HISTORY_SCHEMA = "schema/billing-history.json";
  public static final String PAYMENT_EVENTS_SCHEMA = "schema/payment-events.json";

  /** Receipts and payment events both expire through this attribute (epoch seconds). */
  public static final String TTL_ATTRIBUTE = ReceiptItems.EXPIRES_AT;

  /**
   * Jackson fills the SDK's own builders: they are the model the CLI's input format describes, so
   * every create-table field works and a misspelt one fails instead of being ignored.
   */
  private static final ObjectMapper JSON =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.UPPER_CAMEL_CASE);

  private BillingTables() {}

  /**
   * Creates whichever table is missing, waits until all are ACTIVE and turns on TTL for receipts
   * and payment events. Safe to call on every start and from several processes at once.
   *
   * @throws IllegalStateException when an existing table lacks an index of the schema, or has TTL
   *     on another attribute: the store would not work on it
   */
  public static void createIfMissing(DynamoDbClient client, TableNames names) {
    try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(client).build()) {
      createIfMissing(client, waiter, schema(BILLING_SCHEMA, names.billing()));
      createIfMissing(client, waiter, schema(HISTORY_SCHEMA, names.history()));
      createIfMissing(client, waiter, schema(PAYMENT_EVENTS_SCHEMA, names.paymentEvents()));
    }
    enableTimeToLive(client, names.billing());
    enableTimeToLive(client, names.paymentEvents());
  }

  /** The create-table request of one schema file, for the given table name. */
  public static CreateTableRequest schema(String resource, String tableName) {
    try (InputStream in = BillingTables.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      CreateTableRequest.Builder builder =
          (CreateTableRequest.Builder)
              JSON.readValue(in, CreateTableRequest.serializableBuilderClass());
      return builder.tableName(tableName).build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  private static void createIfMissing(
      DynamoDbClient client, DynamoDbWaiter waiter, CreateTableRequest request) {
    String table = request.tableName();
    try {
      client.describeTable(r -> r.tableName(table));
    } catch (ResourceNotFoundException missing) {
      try {
        client.createTable(request);
      } catch (ResourceInUseException createdMeanwhile) {
        // Another process got there first; waiting below is all that is left to do.
      }
    }
    TableDescription description =
        waiter
            .waitUntilTableExists(r -> r.tableName(table))
            .matched()
            .response()
            .orElseThrow(
                () -> new IllegalStateException("table " + table + " did not become ACTIVE"))
            .table();
    requireIndexes(request, description);
  }

  private static void requireIndexes(CreateTableRequest request, TableDescription table) {
    Set<String> present =
        table.globalSecondaryIndexes().stream()
            .map(GlobalSecondaryIndexDescription::indexName)
            .collect(Collectors.toSet());
    List<String> missing =
        request.globalSecondaryIndexes().stream()
            .map(GlobalSecondaryIndex::indexName)
            .filter(name -> !present.contains(name))
            .toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "table "
              + table.tableName()
              + " exists without index(es) "
              + missing
              + "; add them (aws dynamodb update-table) or use another table name");
    }
  }

  private static void enableTimeToLive(DynamoDbClient client, String table) {
    TimeToLiveDescription ttl =
        client.describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription();
    TimeToLiveStatus status = ttl.timeToLiveStatus();
    boolean on = status == TimeToLiveStatus.ENABLED || status == TimeToLiveStatus.ENABLING;
    if (on && TTL_ATTRIBUTE.equals(ttl.attributeName())) {
      return; // enabling it again would be an error
    }
    if (on || status == TimeToLiveStatus.DISABLING) {
      throw new IllegalStateException(
          "table "
              + table
              + " has TTL "
              + status
              + " on attribute "
              + ttl.attributeName()
              + "; the store needs it on "
              + TTL_ATTRIBUTE);
    }
    client.updateTimeToLive(
        r ->
            r.tableName(table)
                .timeToLiveSpecification(s -> s.enabled(true).attributeName(TTL_ATTRIBUTE)));
  }
}
