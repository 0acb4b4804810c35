package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The one loop behind page tokens and reconciliation cursors, on scripted responses: DynamoDB Local
 * does not come back short of a Limit with items left on demand (the 1 MB cap, a filter).
 */
class PartitionReaderTest {
  private static final Function<Map<String, AttributeValue>, String> ID =
      item -> item.get("id").s();

  private final List<QueryRequest> sent = new ArrayList<>();

  @Test
  void fillsAPageAcrossPartitionsAndStopsWhereTheNextPageStarts() {
    PartitionReader reader =
        new PartitionReader(partitions(List.of("a1", "a2", "a3"), List.of("b1", "b2", "b3")));
    List<QueryRequest> both = List.of(query("a"), query("b"));

    PartitionReader.Result<String> first = reader.read(both, ReadPosition.START, 4, ID);

    assertThat(first.items()).containsExactly("a1", "a2", "a3", "b1");
    assertThat(first.next()).isEqualTo(new ReadPosition(1, key("b1")));
    // Never more than is missing, so the last key is exactly where the next page starts.
    assertThat(sent).extracting(QueryRequest::limit).containsExactly(4, 2, 1);
    PartitionReader.Result<String> rest = reader.read(both, first.next(), 4, ID);
    assertThat(rest.items()).containsExactly("b2", "b3");
    assertThat(rest.next()).isNull();
  }

  @Test
  void aRunOfShortResponsesEndsThePageAfterMaxRoundTripsWithItsPosition() {
    // Every response empty with more left, as when a filter drops every item read.
    PartitionReader reader =
        new PartitionReader(
            client(
                request ->
                    QueryResponse.builder()
                        .items(List.of())
                        .lastEvaluatedKey(key("x" + sent.size()))
                        .build()));

    PartitionReader.Result<String> page =
        reader.read(List.of(query("a")), ReadPosition.START, 5, ID);

    assertThat(page.items()).isEmpty();
    assertThat(sent).hasSize(PartitionReader.MAX_ROUND_TRIPS);
    assertThat(page.next())
        .isEqualTo(new ReadPosition(0, key("x" + PartitionReader.MAX_ROUND_TRIPS)));
  }

  @Test
  void readAllReadsEveryPartitionToItsEnd() {
    PartitionReader reader =
        new PartitionReader(partitions(List.of("a1", "a2", "a3"), List.of(), List.of("c1")));

    assertThat(reader.readAll(List.of(query("a"), query("b"), query("c")), ID))
        .containsExactly("a1", "a2", "a3", "c1");
  }

  /**
   * Partitions "a", "b", ... by table name; a response holds two items at most (the 1 MB cap,
   * small).
   */
  @SafeVarargs
  private DynamoDbClient partitions(List<String>... contents) {
    return client(
        request -> {
          List<String> ids = contents[request.tableName().charAt(0) - 'a'];
          int from =
              request.hasExclusiveStartKey()
                  ? ids.indexOf(request.exclusiveStartKey().get("id").s()) + 1
                  : 0;
          int to =
              Math.min(
                  ids.size(), from + (request.limit() == null ? 2 : Math.min(2, request.limit())));
          QueryResponse.Builder response =
              QueryResponse.builder()
                  .items(ids.subList(from, to).stream().map(PartitionReaderTest::key).toList());
          return to < ids.size()
              ? response.lastEvaluatedKey(key(ids.get(to - 1))).build()
              : response.build();
        });
  }

  private DynamoDbClient client(Function<QueryRequest, QueryResponse> responses) {
    return new DynamoDbClient() {
      @Override
      public QueryResponse query(QueryRequest request) {
        sent.add(request);
        return responses.apply(request);
      }

      @Override
      public String serviceName() {
        return "dynamodb";
      }

      @Override
      public void close() {}
    };
  }

  private static QueryRequest query(String partition) {
    return QueryRequest.builder().tableName(partition).build();
  }

  private static Map<String, AttributeValue> key(String id) {
    return Map.of("id", AttributeValue.fromS(id));
  }
}
