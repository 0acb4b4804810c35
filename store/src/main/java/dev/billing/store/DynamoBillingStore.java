package dev.billing.store;

import static dev.billing.store.Attrs.s;

import dev.billing.domain.Period;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@link BillingStore} on two DynamoDB tables (see schema/README.md), through the low-level client.
 * Thread-safe. Base-table reads are strongly consistent so that the API reads its own writes; GSI
 * reads cannot be, and may lag a write by a moment on AWS.
 */
public final class DynamoBillingStore implements BillingStore {
  private static final String BY_PREFIX = "PK = :pk AND begins_with(SK, :prefix)";

  private final DynamoDbClient client;
  private final TableNames tables;
  private final StoreSettings settings;
  private final QueryPager pager;
  private final SubscriptionLookup lookup;
  private final ChangeWriter writer;
  private final TableSharding sharding;

  /**
   * The table's date-key shard count (its META item) is read on first use, once, and stored there
   * with {@code settings.dateKeyShards()} when the table has none yet; the tables may be created
   * after the store (processes create them when they start).
   */
  public DynamoBillingStore(DynamoDbClient client, TableNames tables, StoreSettings settings) {
    this.client = Objects.requireNonNull(client, "client");
    this.tables = Objects.requireNonNull(tables, "tables");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.pager = new QueryPager(client, new PageTokens(settings.pageTokenKey()));
    this.lookup = new SubscriptionLookup(client, tables.billing());
    this.sharding = new TableSharding(client, tables.billing(), settings.dateKeyShards());
    this.writer = new ChangeWriter(client, tables, settings.receiptRetention(), lookup, sharding);
  }

  /** How this table's due-date keys are sharded (reads the META item the first time). */
  public DateKeySharding sharding() {
    return sharding.get();
  }

  @Override
  public RecordResult createSubscription(RecordInput change) {
    return writer.create(change);
  }

  @Override
  public boolean createReceipt(Receipt receipt) {
    Keys.requireId("accountId", receipt.accountId());
    try {
      client.putItem(
          PutItemRequest.builder()
              .tableName(tables.billing())
              .item(ReceiptItems.item(receipt, settings.receiptRetention()))
              .conditionExpression("attribute_not_exists(PK)")
              .build());
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    }
  }

  @Override
  public RecordResult updateSubscription(RecordInput change) {
    return writer.update(change);
  }

  @Override
  public Page<DueReminder> getDueRemindersByDate(LocalDate date, PageRequest page) {
    return dueOn(Keys.GSI_REMINDERS, "NextReminderDate", date, page, DueItems::reminder);
  }

  @Override
  public Page<DuePayment> getDuePaymentsByDate(LocalDate date, PageRequest page) {
    return dueOn(Keys.GSI_PAYMENTS, "NextPaymentDate", date, page, DueItems::payment);
  }

  /**
   * The partitions of one date in a sparse due-date index (GSI-1 or GSI-2), one per shard, read
   * shard after shard: within a page the items come shard by shard, each shard in the index's sort
   * order.
   */
  private <T> Page<T> dueOn(
      String index,
      String dateAttribute,
      LocalDate date,
      PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    return pager.pageAcross(
        dueOnQueries(index, dateAttribute, date),
        scope(tables.billing(), index, Timestamps.date(date), "shards=" + sharding().shards()),
        page,
        mapper);
  }

  /** One query per shard of {@code date}'s partitions in a due-date index, shard 0 first. */
  List<QueryRequest> dueOnQueries(String index, String dateAttribute, LocalDate date) {
    return sharding()
        .queries(
            date,
            QueryRequest.builder()
                .tableName(tables.billing())
                .indexName(index)
                .keyConditionExpression(dateAttribute + " = :date")
                .build());
  }

  /** The client and tables under this store, for the stores of other items in the same tables. */
  public DynamoDbClient client() {
    return client;
  }

  public TableNames tables() {
    return tables;
  }

  @Override
  public Page<Subscription> getSubscriptionsByAccount(String accountId, PageRequest page) {
    return byPrefix(accountId, "SUB#", page, SubscriptionItems::fromItem);
  }

  @Override
  public Page<Receipt> getReceiptsByAccount(String accountId, Instant now, PageRequest page) {
    String pk = Keys.account(accountId);
    return pager.page(
        QueryRequest.builder()
            .tableName(tables.billing())
            .keyConditionExpression(BY_PREFIX)
            // TTL deletion lags (up to days on AWS, never on DynamoDB Local with GSIs).
            .filterExpression("ExpiresAt > :now")
            .expressionAttributeValues(
                Map.of(":pk", s(pk), ":prefix", s("REC#"), ":now", Attrs.n(now.getEpochSecond())))
            .scanIndexForward(false)
            .consistentRead(true)
            .build(),
        scope(tables.billing(), pk, "REC#"),
        page,
        ReceiptItems::fromItem);
  }

  @Override
  public Optional<Subscription> getSubscription(String accountId, String subscriptionId) {
    return Optional.ofNullable(lookup.find(accountId, subscriptionId))
        .map(SubscriptionItems::fromItem);
  }

  @Override
  public Optional<Period> getPeriod(String accountId, String subscriptionId, long cycle) {
    Map<String, AttributeValue> item =
        client
            .getItem(
                GetItemRequest.builder()
                    .tableName(tables.billing())
                    .key(
                        Map.of(
                            Keys.PK,
                            s(Keys.account(accountId)),
                            Keys.SK,
                            s(Keys.period(subscriptionId, cycle))))
                    .consistentRead(true)
                    .build())
            .item();
    return item == null || item.isEmpty()
        ? Optional.empty()
        : Optional.of(PeriodItems.fromItem(item));
  }

  @Override
  public Page<Period> getPeriods(String accountId, String subscriptionId, PageRequest page) {
    return byPrefix(accountId, Keys.periodPrefix(subscriptionId), page, PeriodItems::fromItem);
  }

  @Override
  public Page<HistoryEntry> getHistory(String subscriptionId, PageRequest page) {
    String pk = Keys.history(subscriptionId);
    return pager.page(
        QueryRequest.builder()
            .tableName(tables.history())
            .keyConditionExpression("PK = :pk")
            .expressionAttributeValues(Map.of(":pk", s(pk)))
            .consistentRead(true)
            .build(),
        scope(tables.history(), pk),
        page,
        HistoryItems::fromItem);
  }

  private <T> Page<T> byPrefix(
      String accountId,
      String prefix,
      PageRequest page,
      Function<Map<String, AttributeValue>, T> mapper) {
    String pk = Keys.account(accountId);
    return pager.page(
        QueryRequest.builder()
            .tableName(tables.billing())
            .keyConditionExpression(BY_PREFIX)
            .expressionAttributeValues(Map.of(":pk", s(pk), ":prefix", s(prefix)))
            .consistentRead(true)
            .build(),
        scope(tables.billing(), pk, prefix),
        page,
        mapper);
  }

  /** What a page token is bound to: table, index or partition, and key prefix or value. */
  private static String scope(String... parts) {
    return String.join("|", parts);
  }
}
