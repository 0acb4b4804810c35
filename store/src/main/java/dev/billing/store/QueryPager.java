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
 * Runs one page of a query: Limit from the PageRequest, ExclusiveStartKey from a signed token. Public
 * for the stores in sub-packages (payment events), which page the same way.
 */
public final class QueryPager {

  /**
   * DynamoDB applies Limit before the FilterExpression, so a filtered query can come back short, or
   * empty, with more items left. We then query on from where it stopped, a bounded number of times:
   * a page is filled in the usual case, and a long run of filtered-out items costs the caller
   * another (short) page instead of an unbounded loop here.
   */
  static final int MAX_ROUND_TRIPS = 8;

  private final DynamoDbClient client;
  private final PageTokens tokens;

  public QueryPager(DynamoDbClient client, PageTokens tokens) {
    this.client = client;
    this.tokens = tokens;
  }

  /**
   * @param scope names the query (table, index, partition, prefix): a token only continues the
   *     query whose scope it was issued for
   */
  public <T> Page<T> page(QueryRequest query, String scope, PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    Map<String, AttributeValue> startKey = tokens.decode(scope, page.token());
    List<T> items = new ArrayList<>();
    for (int trip = 0; trip < MAX_ROUND_TRIPS; trip++) {
      // Never ask for more than is missing: the last response's LastEvaluatedKey is then exactly
      // where the next page starts, and no item read is dropped.
      QueryResponse response = client.query(query.toBuilder()
          .limit(page.limit() - items.size())
          .exclusiveStartKey(startKey)
          .build());
      response.items().forEach(item -> items.add(mapper.apply(item)));
      startKey = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
          ? response.lastEvaluatedKey()
          : null;
      if (startKey == null || items.size() >= page.limit()) {
        break;
      }
    }
    return new Page<>(items, tokens.encode(scope, startKey));
  }

  /**
   * One page of a query over several partitions read one after another, in order: the shards of
   * one due date. The page fills from the shard the token points at and moves to the next shard
   * when one is exhausted; the token records the shard and the position inside it, signed and bound
   * to the query like any other.
   *
   * @param queries one query per partition, in the order they are read
   */
  <T> Page<T> pageAcross(List<QueryRequest> queries, String scope, PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    PageTokens.Position position = tokens.decodePosition(scope, page.token(), queries.size());
    int shard = position.shard();
    Map<String, AttributeValue> startKey = position.key();
    List<T> items = new ArrayList<>();
    // Without a filter every response holds items or ends its partition, so this always ends; the
    // bound only guards against a response that does neither.
    int trips = queries.size() + page.limit() + 1;
    while (shard < queries.size() && items.size() < page.limit() && trips-- > 0) {
      QueryResponse response = client.query(queries.get(shard).toBuilder()
          .limit(page.limit() - items.size())
          .exclusiveStartKey(startKey)
          .build());
      response.items().forEach(item -> items.add(mapper.apply(item)));
      startKey = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
          ? response.lastEvaluatedKey()
          : null;
      if (startKey == null) {
        shard++;
      }
    }
    PageTokens.Position next = shard < queries.size() ? new PageTokens.Position(shard, startKey) : null;
    return new Page<>(items, tokens.encodePosition(scope, next));
  }
}
