package dev.billing.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Reads query partitions one after another, in order: the shards of one due date, or a single
 * partition. Every paged read in this package goes through {@link #read}; turning the position it
 * stops at into a signed page token or a reconciliation cursor is the caller's business.
 */
final class PartitionReader {

  /**
   * DynamoDB applies Limit before the FilterExpression (and stops at 1 MB), so a response can come
   * back short, or empty, with more items left. We then query on from where it stopped, this many
   * times at most: a page is filled in the usual case, and a long run of filtered-out items costs
   * the caller another (short) page instead of an unbounded loop here.
   */
  static final int MAX_ROUND_TRIPS = 8;

  private final DynamoDbClient client;

  PartitionReader(DynamoDbClient client) {
    this.client = client;
  }

  /**
   * @param next where the following read starts; null when every partition is read to its end
   */
  record Result<T>(List<T> items, ReadPosition next) {}

  /**
   * Up to {@code limit} items from {@code from} on, moving to the next partition when one ends.
   *
   * @param partitions one query per partition, in the order they are read; {@link
   *     ReadPosition#shard} indexes them
   */
  <T> Result<T> read(
      List<QueryRequest> partitions,
      ReadPosition from,
      int limit,
      Function<Map<String, AttributeValue>, T> mapper) {
    int shard = from.shard();
    Map<String, AttributeValue> startKey = from.key();
    List<T> items = new ArrayList<>();
    int shortResponses = 0;
    while (shard < partitions.size() && items.size() < limit && shortResponses < MAX_ROUND_TRIPS) {
      // Never ask for more than is missing: the last response's LastEvaluatedKey is then exactly
      // where the next read starts, and no item read is dropped.
      QueryResponse response =
          client.query(
              partitions.get(shard).toBuilder()
                  .limit(limit - items.size())
                  .exclusiveStartKey(startKey)
                  .build());
      response.items().forEach(item -> items.add(mapper.apply(item)));
      startKey = lastEvaluatedKey(response);
      if (startKey == null) {
        shard++;
      } else if (items.size() < limit) {
        shortResponses++;
      }
    }
    return new Result<>(
        items, shard < partitions.size() ? new ReadPosition(shard, startKey) : null);
  }

  /** Every item of every partition, in order (for reads bounded by their key condition). */
  <T> List<T> readAll(
      List<QueryRequest> partitions, Function<Map<String, AttributeValue>, T> mapper) {
    List<T> items = new ArrayList<>();
    for (QueryRequest partition : partitions) {
      Map<String, AttributeValue> startKey = null;
      do {
        QueryResponse response =
            client.query(partition.toBuilder().exclusiveStartKey(startKey).build());
        response.items().forEach(item -> items.add(mapper.apply(item)));
        startKey = lastEvaluatedKey(response);
      } while (startKey != null);
    }
    return items;
  }

  private static Map<String, AttributeValue> lastEvaluatedKey(QueryResponse response) {
    return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
        ? response.lastEvaluatedKey()
        : null;
  }
}
