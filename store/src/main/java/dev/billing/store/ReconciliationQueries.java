package dev.billing.store;

import static dev.billing.store.Attrs.s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The reads reconciliation needs, every one a Query on a key or an index partition (never a Scan),
 * so a run costs in proportion to the subscriptions and charges of its window. Thread-safe.
 */
public final class ReconciliationQueries {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final DynamoDbClient client;
  private final TableNames tables;
  private final BillingStore store;
  private volatile DateKeySharding sharding;

  public ReconciliationQueries(DynamoDbClient client, TableNames tables, BillingStore store) {
    this.client = Objects.requireNonNull(client, "client");
    this.tables = Objects.requireNonNull(tables, "tables");
    this.store = Objects.requireNonNull(store, "store");
  }

  /** The table's shard count, read once (the store wrote it when it opened the table). */
  private DateKeySharding sharding() {
    DateKeySharding known = sharding;
    if (known == null) {
      known = store instanceof DynamoBillingStore dynamo ? dynamo.sharding()
          : DateKeySharding.read(client, tables.billing());
      sharding = known;
    }
    return known;
  }

  /** One page of GSI-2's partition for {@code date}, and the cursor of the next page. */
  public record DueBatch(List<DuePayment> items, String nextCursor) {
    public DueBatch {
      items = List.copyOf(items);
    }
  }

  /**
   * GSI-2, subscriptions whose NextPaymentDate is {@code date}: those due that day, and those that
   * were due and never moved on. The date's shards are read one after another.
   *
   * @param cursor {@link DueBatch#nextCursor()} of the previous page, or null. Unlike API page
   *     tokens it is not signed: it only travels between a workflow and its own activities, which
   *     may run on different worker processes (each with its own random page-token key)
   */
  public DueBatch duePayments(LocalDate date, String cursor, int limit) {
    DateKeySharding shards = sharding();
    Cursor at = Cursor.decode(cursor);
    int shard = at.shard();
    Map<String, AttributeValue> startKey = at.key();
    List<DuePayment> items = new ArrayList<>();
    while (shard < shards.shards() && items.size() < limit) {
      QueryResponse response = client.query(QueryRequest.builder()
          .tableName(tables.billing())
          .indexName(Keys.GSI_PAYMENTS)
          .keyConditionExpression("NextPaymentDate = :date")
          .expressionAttributeValues(Map.of(":date", s(shards.key(date, shard))))
          .exclusiveStartKey(startKey)
          .limit(limit - items.size())
          .build());
      response.items().forEach(item -> items.add(DueItems.payment(item)));
      startKey = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
          ? response.lastEvaluatedKey() : null;
      if (startKey == null) {
        shard++;
      }
    }
    return new DueBatch(items, shard < shards.shards() ? new Cursor(shard, startKey).encode() : null);
  }

  /**
   * GSI-2 entries now due on {@code nextPaymentDate} whose last payment was in {@code [from, to]}:
   * the subscriptions that paid in that window for the cycle before (the sort key bounds the read).
   */
  public List<DuePayment> paidBetween(LocalDate nextPaymentDate, Instant from, Instant to) {
    List<DuePayment> paid = new ArrayList<>();
    for (String key : sharding().keys(nextPaymentDate)) {
      Map<String, AttributeValue> start = null;
      do {
        QueryResponse response = client.query(QueryRequest.builder()
            .tableName(tables.billing())
            .indexName(Keys.GSI_PAYMENTS)
            .keyConditionExpression("NextPaymentDate = :date AND LastPaymentDate BETWEEN :from AND :to")
            .expressionAttributeValues(Map.of(":date", s(key),
                ":from", s(Timestamps.format(from)), ":to", s(Timestamps.format(to))))
            .exclusiveStartKey(start)
            .build());
        response.items().forEach(item -> paid.add(DueItems.payment(item)));
        start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
            ? response.lastEvaluatedKey() : null;
      } while (start != null);
    }
    return paid;
  }

  /** The account of a subscription, from its first history entry (history is keyed by subscription). */
  public Optional<String> accountOf(String subscriptionId) {
    return store.getHistory(subscriptionId, PageRequest.first(1)).items().stream()
        .findFirst().map(HistoryEntry::accountId);
  }

  /** One period, read consistently. */
  public Optional<Period> period(String accountId, String subscriptionId, long cycle) {
    Map<String, AttributeValue> item = client.getItem(r -> r.tableName(tables.billing())
        .consistentRead(true)
        .key(Map.of(Keys.PK, s(Keys.account(accountId)),
            Keys.SK, s(Keys.period(subscriptionId, cycle))))).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(PeriodItems.fromItem(item));
  }

  /** Every period of a subscription, oldest first (one per cycle: a few dozen at most). */
  public List<Period> periods(String accountId, String subscriptionId) {
    List<Period> periods = new ArrayList<>();
    String token = null;
    do {
      Page<Period> page = store.getPeriods(accountId, subscriptionId,
          new PageRequest(token, PageRequest.MAX_LIMIT));
      periods.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return periods;
  }

  /**
   * The account's receipts processed in {@code [from, to]}, expired ones included (they still
   * record a payment): the receipt key starts with the processing time, so this reads only them.
   */
  public List<Receipt> receiptsBetween(String accountId, Instant from, Instant to) {
    List<Receipt> receipts = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      QueryResponse response = client.query(QueryRequest.builder()
          .tableName(tables.billing())
          .keyConditionExpression("PK = :pk AND SK BETWEEN :from AND :to")
          .expressionAttributeValues(Map.of(":pk", s(Keys.account(accountId)),
              ":from", s("REC#" + Timestamps.format(from)),
              // '$' sorts after '#': every receipt of the last millisecond is included.
              ":to", s("REC#" + Timestamps.format(to) + "$")))
          .consistentRead(true)
          .exclusiveStartKey(start)
          .build());
      response.items().forEach(item -> receipts.add(ReceiptItems.fromItem(item)));
      start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
          ? response.lastEvaluatedKey() : null;
    } while (start != null);
    return receipts;
  }

  /**
   * Where a due-date read stands: the shard and, inside it, the LastEvaluatedKey (null: from the
   * shard's start). Encoded {@code {"s":shard,"k":{...}}}.
   */
  record Cursor(int shard, Map<String, AttributeValue> key) {

    String encode() {
      ObjectNode node = JSON.createObjectNode();
      node.put("s", shard);
      if (key != null) {
        ObjectNode keyNode = node.putObject("k");
        key.forEach((name, value) -> keyNode.put(name, value.s()));
      }
      return ENCODER.encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    static Cursor decode(String cursor) {
      if (cursor == null) {
        return new Cursor(0, null);
      }
      try {
        JsonNode node = JSON.readTree(DECODER.decode(cursor));
        if (!node.isObject()) {
          throw new IllegalArgumentException("not an object");
        }
        if (!node.has("s") || !node.get("s").isInt() || node.get("s").intValue() < 0) {
          throw new IllegalArgumentException("shard is not a number");
        }
        return new Cursor(node.get("s").intValue(), node.has("k") ? key(node.get("k")) : null);
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("not a due-date cursor: " + cursor, e);
      }
    }

    private static Map<String, AttributeValue> key(JsonNode node) {
      Map<String, AttributeValue> key = new HashMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (!field.getValue().isTextual()) {
          throw new IllegalArgumentException("cursor attribute " + field.getKey() + " is not a string");
        }
        key.put(field.getKey(), AttributeValue.fromS(field.getValue().textValue()));
      }
      return key;
    }
  }
}
