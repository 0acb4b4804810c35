package dev.billing.store;

import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A table's {@link DateKeySharding}, read (or, the first time, written) once when first needed and
 * kept: the count never changes for a table, and reading it lazily lets a process build its store
 * before it creates its tables.
 */
final class TableSharding implements Supplier<DateKeySharding> {
  private final DynamoDbClient client;
  private final String table;
  private final int configured;
  private volatile DateKeySharding sharding;

  TableSharding(DynamoDbClient client, String table, int configured) {
    this.client = client;
    this.table = table;
    this.configured = configured;
    DateKeySharding.of(configured);
  }

  @Override
  public DateKeySharding get() {
    DateKeySharding known = sharding;
    if (known == null) {
      synchronized (this) {
        if (sharding == null) {
          sharding = DateKeySharding.open(client, table, configured);
        }
        known = sharding;
      }
    }
    return known;
  }
}
