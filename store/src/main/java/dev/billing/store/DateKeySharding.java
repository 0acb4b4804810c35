package dev.billing.store;

import static dev.billing.store.Attrs.s;

import dev.billing.domain.SaltedHash;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Write-sharding of the due-date indexes. GSI-1 and GSI-2 are keyed by a date, so every
 * subscription due on one day would write to one index partition, and DynamoDB caps a partition at
 * 1,000 write units a second. The subscription item's NextReminderDate and NextPaymentDate
 * therefore hold {@code <date>#<shard>}, the shard a stable hash of the subscription id, and the
 * due-date queries read every shard of the date.
 *
 * <p>The shard count belongs to the table, not to a process: the first process to open the store on
 * a table stores its configured count in the table's META item, and every process reads it from
 * there once, before their first due-date write or read, so all of them write and read the same
 * keys. Changing it on a table in use needs every subscription item rewritten; the configuration
 * then only applies to new tables.
 */
public final class DateKeySharding {
  private static final Logger log = LoggerFactory.getLogger(DateKeySharding.class);

  public static final int DEFAULT_SHARDS = 16;
  public static final int MAX_SHARDS = 256;
  static final String META_PK = "META#TABLE";
  static final String META_SK = "DATE_KEY_SHARDS";
  static final String SHARDS = "Shards";

  /**
   * Salts the hash so that the shard is independent of other hashes of the id (the due instant's).
   */
  private static final String SALT = "date-key-shard:";

  private final int shards;

  private DateKeySharding(int shards) {
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException(
          "date-key shards must be between 1 and " + MAX_SHARDS + ", got " + shards);
    }
    this.shards = shards;
  }

  public static DateKeySharding of(int shards) {
    return new DateKeySharding(shards);
  }

  public int shards() {
    return shards;
  }

  /**
   * The shard of a subscription: the same for every write of it, so its item never changes shard.
   */
  public int shardOf(String subscriptionId) {
    // The hash's first four bytes, unsigned: the rule the keys already written were made with.
    return (int) ((SaltedHash.of(SALT, subscriptionId) >>> 32) % shards);
  }

  String key(LocalDate date, int shard) {
    return Timestamps.date(date) + "#" + shard;
  }

  /** Every index key of one date, shard 0 first: what a due-date query reads. */
  List<String> keys(LocalDate date) {
    List<String> keys = new ArrayList<>(shards);
    for (int shard = 0; shard < shards; shard++) {
      keys.add(key(date, shard));
    }
    return keys;
  }

  /**
   * {@code query} once per shard of {@code date}, shard 0 first, with {@code :date} bound to the
   * shard's key: the partitions a due-date read goes through.
   */
  List<QueryRequest> queries(LocalDate date, QueryRequest query) {
    return keys(date).stream()
        .map(
            key -> {
              Map<String, AttributeValue> values = new HashMap<>(query.expressionAttributeValues());
              values.put(":date", s(key));
              return query.toBuilder().expressionAttributeValues(values).build();
            })
        .toList();
  }

  /** The date of an index key ({@code 2026-12-01#7}); a plain date is read as itself. */
  static LocalDate dateOf(String key) {
    int hash = key.indexOf('#');
    return Timestamps.parseDate(hash < 0 ? key : key.substring(0, hash));
  }

  /**
   * The table's shard count: read from its META item, or stored there with {@code configured} when
   * the table has none yet (a conditional put, so concurrent first starts agree on one count).
   */
  static DateKeySharding open(DynamoDbClient client, String table, int configured) {
    DateKeySharding wanted = of(configured);
    Integer stored = stored(client, table);
    if (stored == null) {
      try {
        client.putItem(
            r ->
                r.tableName(table)
                    .item(
                        Map.of(
                            Keys.PK,
                            s(META_PK),
                            Keys.SK,
                            s(META_SK),
                            Keys.TYPE,
                            s("META"),
                            SHARDS,
                            AttributeValue.fromN(Integer.toString(configured))))
                    .conditionExpression("attribute_not_exists(PK)"));
        return wanted;
      } catch (ConditionalCheckFailedException another) {
        stored = stored(client, table);
      }
    }
    if (stored != configured) {
      log.warn(
          "table {} keys its due dates over {} shards (its META item); the configured {} only"
              + " applies to new tables",
          table,
          stored,
          configured);
    }
    return of(stored);
  }

  private static Integer stored(DynamoDbClient client, String table) {
    Map<String, AttributeValue> item =
        client
            .getItem(
                r ->
                    r.tableName(table)
                        .consistentRead(true)
                        .key(Map.of(Keys.PK, s(META_PK), Keys.SK, s(META_SK))))
            .item();
    return item == null || item.isEmpty() ? null : Integer.valueOf(item.get(SHARDS).n());
  }

  @Override
  public String toString() {
    return "DateKeySharding[" + shards + " shards]";
  }
}
