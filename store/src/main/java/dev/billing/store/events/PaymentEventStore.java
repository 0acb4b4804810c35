package dev.billing.store.events;

import static dev.billing.store.events.PaymentEventItems.s;

import dev.billing.store.Page;
import dev.billing.store.PageRequest;
import dev.billing.store.PageTokens;
import dev.billing.store.QueryPager;
import dev.billing.store.StoreSettings;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The payment-events table: every gateway event the webhooks accepted, stored once under its
 * provider and id, expiring 30 days after the event like the provider's own copy. Thread-safe.
 *
 * <p>Expired items are not filtered on read: DynamoDB deletes them late (never on DynamoDB Local
 * with GSIs), but an expired event is still an event that was received, which is all the replay
 * poller asks, and the date index does not hold the expiry anyway (keys only).
 */
public final class PaymentEventStore {
  /**
   * Stripe keeps events for 30 days; a record older than that can no longer be compared to its
   * source.
   */
  public static final Duration RETENTION = Duration.ofDays(30);

  public static final String BY_DATE = "ByDate";
  public static final String BY_SUBSCRIPTION = "BySubscription";
  public static final String BY_TRANSACTION = "ByTransaction";

  // "Date", "Time", "Timestamp" and "Type" are DynamoDB reserved words: expressions use these
  // names.
  private static final Map<String, String> DATE_NAMES = Map.of("#date", PaymentEventItems.DATE);
  private static final Map<String, String> SUBSCRIPTION_NAMES =
      Map.of("#sub", PaymentEventItems.SUBSCRIPTION_ID);

  private final DynamoDbClient client;
  private final String table;
  private final QueryPager pager;

  /**
   * @param pageTokenKey signs page tokens, as {@link StoreSettings#pageTokenKey()} does for the
   *     billing store (at least {@value StoreSettings#MIN_KEY_BYTES} bytes)
   */
  public PaymentEventStore(DynamoDbClient client, String table, byte[] pageTokenKey) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    Objects.requireNonNull(pageTokenKey, "pageTokenKey");
    if (pageTokenKey.length < StoreSettings.MIN_KEY_BYTES) {
      throw new IllegalArgumentException(
          "pageTokenKey must be at least "
              + StoreSettings.MIN_KEY_BYTES
              + " bytes, got "
              + pageTokenKey.length);
    }
    this.pager = new QueryPager(client, new PageTokens(pageTokenKey.clone()));
  }

  /**
   * Stores the event unless its provider and id are already stored; the stored copy is then left as
   * it is (the first delivery wins, later ones are the same event).
   *
   * @return true when this call stored it, false when it was already stored
   */
  public boolean recordOnce(StoredEvent event) {
    try {
      client.putItem(
          r ->
              r.tableName(table)
                  .item(PaymentEventItems.item(event, RETENTION))
                  .conditionExpression("attribute_not_exists(" + PaymentEventItems.PK + ")"));
      return true;
    } catch (ConditionalCheckFailedException alreadyStored) {
      return false;
    }
  }

  /** The stored event, read consistently (so a delivery just recorded is seen). */
  public Optional<StoredEvent> find(String provider, String eventId) {
    Map<String, AttributeValue> item =
        client
            .getItem(
                r ->
                    r.tableName(table)
                        .consistentRead(true)
                        .key(PaymentEventItems.keyOf(provider, eventId)))
            .item();
    return item == null || item.isEmpty()
        ? Optional.empty()
        : Optional.of(PaymentEventItems.fromItem(item));
  }

  /**
   * The events that occurred on this UTC date, in time order: what the replay poller compares with
   * the provider's list. Near midnight a poller also asks for the previous date.
   */
  public Page<EventRef> eventsOn(LocalDate date, PageRequest page) {
    String day = EventTimes.date(date);
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .indexName(BY_DATE)
            .keyConditionExpression("#date = :date")
            .expressionAttributeNames(DATE_NAMES)
            .expressionAttributeValues(Map.of(":date", s(day)))
            .build(),
        scope(BY_DATE, day),
        page,
        PaymentEventItems::ref);
  }

  /** The events about one subscription's charges, oldest first. */
  public Page<SubscriptionEvent> eventsOf(String subscriptionId, PageRequest page) {
    requireValue("subscriptionId", subscriptionId);
    return pager.page(
        QueryRequest.builder()
            .tableName(table)
            .indexName(BY_SUBSCRIPTION)
            .keyConditionExpression("#sub = :sub")
            .expressionAttributeNames(SUBSCRIPTION_NAMES)
            .expressionAttributeValues(Map.of(":sub", s(subscriptionId)))
            .build(),
        scope(BY_SUBSCRIPTION, subscriptionId),
        page,
        PaymentEventItems::subscriptionEvent);
  }

  /**
   * Whose charge this transaction is, according to the newest stored event of it that carried a
   * subscription id; empty when none did (or all of them expired and were deleted).
   */
  public Optional<ChargeOwner> ownerOf(String provider, String transactionId) {
    requireValue("provider", provider);
    requireValue("transactionId", transactionId);
    // A transaction has a handful of events; one page of them is all of them.
    return client
        .query(
            r ->
                r.tableName(table)
                    .indexName(BY_TRANSACTION)
                    .keyConditionExpression("#tx = :tx")
                    .filterExpression("#provider = :provider AND attribute_exists(#sub)")
                    .expressionAttributeNames(
                        Map.of(
                            "#tx",
                            PaymentEventItems.TRANSACTION_ID,
                            "#provider",
                            PaymentEventItems.PROVIDER,
                            "#sub",
                            PaymentEventItems.SUBSCRIPTION_ID))
                    .expressionAttributeValues(
                        Map.of(":tx", s(transactionId), ":provider", s(provider)))
                    .scanIndexForward(false))
        .items()
        .stream()
        .findFirst()
        .map(PaymentEventItems::owner);
  }

  private String scope(String index, String value) {
    return String.join("|", table, index, value);
  }

  private static void requireValue(String what, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(what + " is required");
    }
  }
}
