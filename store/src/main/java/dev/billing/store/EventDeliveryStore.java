package dev.billing.store;

import static dev.billing.store.Attrs.s;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * What the delivery of merchant events reads and writes (ADR 0012): the events still owed ({@code
 * EventsUndelivered}, one partition per day and shard), the endpoints an event's delivery has
 * finished for ({@code FinishedFor}, a string set on the event item), and every attempt, under the
 * endpoint: {@code PK = DELIVERIES#<endpoint>}, {@code SK = <time>#<event>#<attempt>#<status>},
 * kept {@link #RETENTION} (the receipts' TTL attribute). Writing an attempt twice (a retried
 * activity) writes the same key. Thread-safe.
 */
public final class EventDeliveryStore {
  /** How long the attempts stay listed: long enough to see a three-day retry window end. */
  public static final Period RETENTION = Period.ofDays(30);

  /** Items per page of {@link #owedBefore}: a subscription's events of a few weeks. */
  private static final int OWED_PAGE = 25;

  static final String PK_PREFIX = "DELIVERIES#";
  static final String FINISHED_FOR = "FinishedFor";
  private static final String TYPE = "DELIVERY_ATTEMPT";

  private final DynamoDbClient client;
  private final String table;
  private final QueryPager pager;
  private final Supplier<DateKeySharding> sharding;

  public EventDeliveryStore(DynamoBillingStore store, byte[] pageTokenKey) {
    this.client = store.client();
    this.table = store.tables().billing();
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
    this.sharding = store::sharding;
  }

  public EventDeliveryStore(
      DynamoDbClient client, String billingTable, byte[] pageTokenKey, int dateKeyShards) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(billingTable, "billingTable");
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
    this.sharding = new TableSharding(client, billingTable, dateKeyShards);
  }

  /** The shards of the {@code EventsUndelivered} partitions of one day. */
  public int shards() {
    return sharding.get().shards();
  }

  /** An event and the endpoints it is finished for, read consistently; empty for an unknown id. */
  public Optional<EventDeliveryState> event(String eventId) {
    Map<String, AttributeValue> key = OutboxItems.keyOf(eventId);
    if (key == null) {
      return Optional.empty();
    }
    Map<String, AttributeValue> item =
        client.getItem(r -> r.tableName(table).key(key).consistentRead(true)).item();
    if (item == null || item.isEmpty()) {
      return Optional.empty();
    }
    AttributeValue finished = item.get(FINISHED_FOR);
    return Optional.of(
        new EventDeliveryState(
            OutboxItems.fromItem(item), finished == null ? Set.of() : Set.copyOf(finished.ss())));
  }

  /**
   * The events of a subscription that come before {@code eventId} (by version, then place in the
   * change) and are still owed to some endpoint, oldest first, read consistently from the
   * subscription's partition: what delivery sends ahead of that event so an endpoint receives a
   * subscription's events in order even when an earlier one's hand-off was lost. Empty for an id
   * that is not an event's.
   *
   * <p>Read newest first, a page at a time, and only back to {@code notBefore}: an event older than
   * that is past every retry and sweep, and the read of a subscription years old stays a page or
   * two instead of its whole history (each item read is paid for, owed or not).
   */
  public List<EventDeliveryState> owedBefore(String eventId, Instant notBefore) {
    Map<String, AttributeValue> key = OutboxItems.keyOf(eventId);
    if (key == null) {
      return List.of();
    }
    List<EventDeliveryState> found = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    reading:
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse response =
          client.query(
              r ->
                  r.tableName(table)
                      .consistentRead(true)
                      .scanIndexForward(false)
                      .limit(OWED_PAGE)
                      .keyConditionExpression("PK = :pk AND SK BETWEEN :first AND :upTo")
                      .expressionAttributeValues(
                          Map.of(
                              ":pk",
                              key.get(Keys.PK),
                              ":first",
                              s(OutboxItems.SK_PREFIX),
                              ":upTo",
                              key.get(Keys.SK)))
                      .exclusiveStartKey(from));
      for (Map<String, AttributeValue> item : response.items()) {
        if (item.get(Keys.SK).equals(key.get(Keys.SK))) {
          continue; // BETWEEN is inclusive: the event itself
        }
        OutboxEvent event = OutboxItems.fromItem(item);
        if (event.createdAt().isBefore(notBefore)) {
          break reading;
        }
        if (item.containsKey(OutboxItems.UNDELIVERED)) {
          AttributeValue finished = item.get(FINISHED_FOR);
          found.add(
              new EventDeliveryState(
                  event, finished == null ? Set.of() : Set.copyOf(finished.ss())));
        }
      }
      start = response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : null;
    } while (start != null && !start.isEmpty());
    Collections.reverse(found);
    return found;
  }

  /**
   * Records an attempt; when it ends the event's delivery to its endpoint ({@code SUCCEEDED},
   * {@code FAILED}), adds the endpoint to the event's finished set in the same transaction, and
   * when {@code lastOwed} says no other endpoint still waits for it, takes the event off the
   * undelivered index.
   */
  public void record(DeliveryAttempt attempt, boolean lastOwed) {
    Put put = Put.builder().tableName(table).item(item(attempt)).build();
    boolean ends =
        attempt.status() == DeliveryAttempt.Status.SUCCEEDED
            || attempt.status() == DeliveryAttempt.Status.FAILED;
    if (!ends) {
      client.putItem(r -> r.tableName(table).item(put.item()));
      return;
    }
    Map<String, AttributeValue> key = OutboxItems.keyOf(attempt.eventId());
    if (key == null) {
      throw new IllegalArgumentException("not an event id: " + attempt.eventId());
    }
    client.transactWriteItems(
        r ->
            r.transactItems(
                TransactWriteItem.builder().put(put).build(),
                TransactWriteItem.builder()
                    .update(
                        Update.builder()
                            .tableName(table)
                            .key(key)
                            .updateExpression(
                                "ADD #finished :endpoint"
                                    + (lastOwed ? " REMOVE " + OutboxItems.UNDELIVERED : ""))
                            .conditionExpression("attribute_exists(PK)")
                            .expressionAttributeNames(Map.of("#finished", FINISHED_FOR))
                            .expressionAttributeValues(
                                Map.of(
                                    ":endpoint",
                                    AttributeValue.fromSs(List.of(attempt.endpointId()))))
                            .build())
                    .build()));
  }

  /** Takes an event off the undelivered index: no endpoint is owed it (none subscribes to it). */
  public void settle(String eventId) {
    Map<String, AttributeValue> key = OutboxItems.keyOf(eventId);
    if (key == null) {
      return;
    }
    try {
      client.updateItem(
          r ->
              r.tableName(table)
                  .key(key)
                  .updateExpression("REMOVE " + OutboxItems.UNDELIVERED)
                  .conditionExpression("attribute_exists(PK)"));
    } catch (software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException e) {
      // No such event: nothing is owed.
    }
  }

  /** An endpoint's attempts, newest first. */
  public Page<DeliveryAttempt> attempts(String endpointId, PageRequest page) {
    String pk = PK_PREFIX + Keys.requireId("endpointId", endpointId);
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .consistentRead(true)
            .keyConditionExpression("PK = :pk")
            .expressionAttributeValues(Map.of(":pk", s(pk)))
            .scanIndexForward(false)
            .build(),
        table + "|" + pk,
        page,
        EventDeliveryStore::fromItem);
  }

  /**
   * Up to {@code limit} events of one day's shard still owed, written before {@code before}, oldest
   * first. The index lags the table by a moment on AWS: a caller reads each event again before it
   * acts on it.
   */
  public List<UndeliveredEvent> undelivered(LocalDate day, int shard, Instant before, int limit) {
    List<UndeliveredEvent> found = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse response =
          client.query(
              r ->
                  r.tableName(table)
                      .indexName(OutboxItems.BY_UNDELIVERED)
                      .keyConditionExpression("#u = :day AND #at < :before")
                      .expressionAttributeNames(
                          Map.of("#u", OutboxItems.UNDELIVERED, "#at", OutboxItems.EVENT_AT))
                      .expressionAttributeValues(
                          Map.of(
                              ":day",
                              s(Timestamps.date(day) + "#" + shard),
                              ":before",
                              s(Timestamps.format(before))))
                      .limit(limit - found.size())
                      .exclusiveStartKey(from));
      for (Map<String, AttributeValue> item : response.items()) {
        found.add(undelivered(item));
      }
      start = response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : null;
    } while (start != null && !start.isEmpty() && found.size() < limit);
    return found;
  }

  private static UndeliveredEvent undelivered(Map<String, AttributeValue> keys) {
    String subscriptionId = keys.get(Keys.PK).s().substring("SUB#".length());
    String[] sk = keys.get(Keys.SK).s().split("#");
    return new UndeliveredEvent(
        subscriptionId,
        OutboxItems.id(subscriptionId, Long.parseLong(sk[1]), Integer.parseInt(sk[2])));
  }

  static Map<String, AttributeValue> item(DeliveryAttempt attempt) {
    Map<String, AttributeValue> item = new HashMap<>();
    String at = Timestamps.format(attempt.at());
    item.put(Keys.PK, s(PK_PREFIX + Keys.requireId("endpointId", attempt.endpointId())));
    item.put(
        Keys.SK,
        s(
            at
                + "#"
                + attempt.eventId()
                + "#"
                + String.format("%04d", attempt.attempt())
                + "#"
                + attempt.status()));
    item.put(Keys.TYPE, s(TYPE));
    item.put("EndpointId", s(attempt.endpointId()));
    item.put("EventId", s(attempt.eventId()));
    Attrs.putIfPresent(item, "EventType", attempt.eventType());
    Attrs.putIfPresent(item, "SubscriptionId", attempt.subscriptionId());
    item.put("Attempt", Attrs.n(attempt.attempt()));
    item.put("Status", s(attempt.status().name()));
    if (attempt.httpStatus() != null) {
      item.put("HttpStatus", Attrs.n(attempt.httpStatus()));
    }
    Attrs.putIfPresent(item, "Error", attempt.error());
    item.put("At", s(at));
    item.put(
        ReceiptItems.EXPIRES_AT,
        Attrs.n(attempt.at().atZone(ZoneOffset.UTC).plus(RETENTION).toInstant().getEpochSecond()));
    return item;
  }

  static DeliveryAttempt fromItem(Map<String, AttributeValue> item) {
    AttributeValue http = item.get("HttpStatus");
    return new DeliveryAttempt(
        Attrs.str(item, "EndpointId"),
        Attrs.str(item, "EventId"),
        Attrs.optStr(item, "EventType"),
        Attrs.optStr(item, "SubscriptionId"),
        Attrs.intNum(item, "Attempt"),
        DeliveryAttempt.Status.valueOf(Attrs.str(item, "Status")),
        http == null ? null : Integer.valueOf(http.n()),
        Attrs.optStr(item, "Error"),
        Timestamps.parse(Attrs.str(item, "At")));
  }
}
