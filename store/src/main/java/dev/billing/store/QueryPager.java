package dev.billing.store;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Runs one page of a query: Limit from the PageRequest, the start from a signed token. Public for
 * the stores in sub-packages (payment events), which page the same way.
 */
public final class QueryPager {
  private final PartitionReader reader;
  private final PageTokens tokens;

  public QueryPager(DynamoDbClient client, PageTokens tokens) {
    this.reader = new PartitionReader(client);
    this.tokens = tokens;
  }

  /**
   * @param scope names the query (table, index, partition, prefix): a token only continues the
   *     query whose scope it was issued for
   */
  public <T> Page<T> page(
      QueryRequest query,
      String scope,
      PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    ReadPosition from = new ReadPosition(0, tokens.decode(scope, page.token()));
    PartitionReader.Result<T> read = reader.read(List.of(query), from, page.limit(), mapper);
    return new Page<>(
        read.items(), tokens.encode(scope, read.next() == null ? null : read.next().key()));
  }

  /**
   * One page of a query over several partitions read one after another, in order: the shards of one
   * due date. The token records the shard and the position inside it, signed and bound to the query
   * like any other.
   *
   * @param queries one query per partition, in the order they are read
   */
  <T> Page<T> pageAcross(
      List<QueryRequest> queries,
      String scope,
      PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    ReadPosition from = tokens.decodePosition(scope, page.token(), queries.size());
    PartitionReader.Result<T> read = reader.read(queries, from, page.limit(), mapper);
    return new Page<>(read.items(), tokens.encodePosition(scope, read.next()));
  }
}
