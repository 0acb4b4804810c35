package dev.billing.store;

import static dev.billing.store.Attrs.s;

import dev.billing.domain.MerchantEventType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Reads the outbox: merchant events, written by {@link ChangeWriter} in their change's transaction.
 * Three ways in, newest first within each: a subscription's events (its partition, consistent), an
 * account's ({@code EventsByAccount}) and a type's ({@code EventsByType}, one partition per shard
 * of the table's date-key sharding, read shard after shard, so that a busy type never writes to one
 * index partition). Index reads lag writes by a moment on AWS. Thread-safe.
 */
public final class MerchantEventStore {
  private final DynamoDbClient client;
  private final String table;
  private final QueryPager pager;
  private final Supplier<DateKeySharding> sharding;

  /** Filters of a list; at least one of the three is set. */
  public record Query(String accountId, String subscriptionId, MerchantEventType type) {
    public Query {
      if (accountId == null && subscriptionId == null && type == null) {
        throw new IllegalArgumentException("an event query needs an account, subscription or type");
      }
    }
  }

  public MerchantEventStore(DynamoBillingStore store, byte[] pageTokenKey) {
    this.client = store.client();
    this.table = store.tables().billing();
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
    this.sharding = store::sharding;
  }

  public MerchantEventStore(
      DynamoDbClient client, String billingTable, byte[] pageTokenKey, int dateKeyShards) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(billingTable, "billingTable");
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
    this.sharding = new TableSharding(client, billingTable, dateKeyShards);
  }

  /**
   * The ids of the events a change writes, in their order: what its record activity hands to
   * delivery once the change is committed (or found committed by an earlier attempt).
   */
  public static List<String> idsOf(dev.billing.domain.RecordInput change) {
    int count = dev.billing.domain.MerchantEvents.of(change).size();
    List<String> ids = new ArrayList<>(count);
    for (int n = 0; n < count; n++) {
      ids.add(OutboxItems.id(change.next().subscriptionId(), change.next().version(), n));
    }
    return ids;
  }

  /** One event by id, read consistently; empty for an id that is not an event's. */
  public Optional<OutboxEvent> find(String eventId) {
    Map<String, AttributeValue> key = OutboxItems.keyOf(eventId);
    if (key == null) {
      return Optional.empty();
    }
    Map<String, AttributeValue> item =
        client.getItem(r -> r.tableName(table).key(key).consistentRead(true)).item();
    return item == null || item.isEmpty()
        ? Optional.empty()
        : Optional.of(OutboxItems.fromItem(item));
  }

  /**
   * A page of the events that match every filter given: by the subscription's partition when it is
   * given, else by the account's index, else by the type's shards.
   */
  public Page<OutboxEvent> list(Query query, PageRequest page) {
    Map<String, AttributeValue> values = new HashMap<>();
    List<String> filters = new ArrayList<>();
    if (query.type() != null && (query.subscriptionId() != null || query.accountId() != null)) {
      filters.add("EventType = :type");
      values.put(":type", s(query.type().wireName()));
    }
    if (query.subscriptionId() != null) {
      if (query.accountId() != null) {
        filters.add("AccountId = :account");
        values.put(":account", s(query.accountId()));
      }
      String pk = Keys.history(query.subscriptionId());
      values.put(":pk", s(pk));
      values.put(":prefix", s(OutboxItems.SK_PREFIX));
      QueryRequest request =
          withFilters(
                  QueryRequest.builder()
                      .tableName(table)
                      .keyConditionExpression("PK = :pk AND begins_with(SK, :prefix)")
                      .consistentRead(true),
                  filters)
              .expressionAttributeValues(values)
              .scanIndexForward(false)
              .build();
      return pager.page(
          request,
          scope(table, pk, OutboxItems.SK_PREFIX, filterScope(query)),
          page,
          OutboxItems::fromItem);
    }
    if (query.accountId() != null) {
      values.put(":account", s(Keys.requireId("accountId", query.accountId())));
      QueryRequest request =
          withFilters(
                  QueryRequest.builder()
                      .tableName(table)
                      .indexName(OutboxItems.BY_ACCOUNT)
                      .keyConditionExpression(OutboxItems.EVENT_ACCOUNT + " = :account"),
                  filters)
              .expressionAttributeValues(values)
              .scanIndexForward(false)
              .build();
      return pager.page(
          request,
          scope(table, OutboxItems.BY_ACCOUNT, query.accountId(), filterScope(query)),
          page,
          OutboxItems::fromItem);
    }
    int shards = sharding.get().shards();
    List<QueryRequest> partitions = new ArrayList<>(shards);
    for (int shard = 0; shard < shards; shard++) {
      partitions.add(
          QueryRequest.builder()
              .tableName(table)
              .indexName(OutboxItems.BY_TYPE)
              .keyConditionExpression(OutboxItems.EVENT_TYPE_SHARD + " = :key")
              .expressionAttributeValues(
                  Map.of(":key", s(OutboxItems.typeShard(query.type(), shard))))
              .scanIndexForward(false)
              .build());
    }
    return pager.pageAcross(
        partitions,
        scope(table, OutboxItems.BY_TYPE, query.type().wireName(), "shards=" + shards),
        page,
        OutboxItems::fromItem);
  }

  private static QueryRequest.Builder withFilters(
      QueryRequest.Builder builder, List<String> filters) {
    return filters.isEmpty() ? builder : builder.filterExpression(String.join(" AND ", filters));
  }

  /** A page token continues only the query it came from: filters included. */
  private static String filterScope(Query query) {
    return "account="
        + Objects.toString(query.accountId(), "")
        + ",type="
        + (query.type() == null ? "" : query.type().wireName());
  }

  private static String scope(String... parts) {
    return String.join("|", parts);
  }
}
