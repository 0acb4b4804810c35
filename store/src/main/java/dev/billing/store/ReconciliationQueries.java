package dev.billing.store;

import static dev.billing.store.Attrs.s;

import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Receipt;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The reads reconciliation needs, every one a Query on a key or an index partition (never a Scan),
 * so a run costs in proportion to the subscriptions and charges of its window. Thread-safe.
 */
public final class ReconciliationQueries {
  private final TableNames tables;
  private final DynamoBillingStore store;
  private final PartitionReader reader;

  /**
   * @param store the store whose table is read: its shard count keys the due-date reads
   */
  public ReconciliationQueries(DynamoBillingStore store) {
    this.store = Objects.requireNonNull(store, "store");
    this.tables = store.tables();
    this.reader = new PartitionReader(store.client());
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
   * @param cursor {@link DueBatch#nextCursor()} of the previous page, or null (a {@link DueCursor})
   */
  public DueBatch duePayments(LocalDate date, String cursor, int limit) {
    DateKeySharding sharding = store.sharding();
    PartitionReader.Result<DuePayment> read =
        reader.read(
            store.dueOnQueries(Keys.GSI_PAYMENTS, "NextPaymentDate", date),
            DueCursor.decode(cursor, sharding.shards()),
            limit,
            DueItems::payment);
    return new DueBatch(read.items(), DueCursor.encode(read.next()));
  }

  /**
   * GSI-2 entries now due on {@code nextPaymentDate} whose last payment was in {@code [from, to]}:
   * the subscriptions that paid in that window for the cycle before (the sort key bounds the read).
   */
  public List<DuePayment> paidBetween(LocalDate nextPaymentDate, Instant from, Instant to) {
    return reader.readAll(
        store
            .sharding()
            .queries(
                nextPaymentDate,
                QueryRequest.builder()
                    .tableName(tables.billing())
                    .indexName(Keys.GSI_PAYMENTS)
                    .keyConditionExpression(
                        "NextPaymentDate = :date AND LastPaymentDate BETWEEN :from AND :to")
                    .expressionAttributeValues(
                        Map.of(
                            ":from", s(Timestamps.format(from)), ":to", s(Timestamps.format(to))))
                    .build()),
        DueItems::payment);
  }

  /**
   * The account of a subscription, from its first history entry (history is keyed by subscription).
   */
  public Optional<String> accountOf(String subscriptionId) {
    return store.getHistory(subscriptionId, PageRequest.first(1)).items().stream()
        .findFirst()
        .map(HistoryEntry::accountId);
  }

  /** A subscription found by its id alone: its account from its history, then its item. */
  public Optional<Subscription> subscription(String subscriptionId) {
    return accountOf(subscriptionId)
        .flatMap(accountId -> store.getSubscription(accountId, subscriptionId));
  }

  /**
   * One period, read consistently; none while it is only SCHEDULED (no money was asked for it, and
   * the checks compare money).
   */
  public Optional<Period> period(String accountId, String subscriptionId, long cycle) {
    return store.getPeriod(accountId, subscriptionId, cycle).filter(ReconciliationQueries::charged);
  }

  /**
   * Every period of a subscription that money was asked for, oldest first (one per cycle: a few
   * dozen at most).
   */
  public List<Period> periods(String accountId, String subscriptionId) {
    return store.allPeriods(accountId, subscriptionId).stream()
        .filter(ReconciliationQueries::charged)
        .toList();
  }

  private static boolean charged(Period period) {
    return period.status() != PeriodStatus.SCHEDULED;
  }

  /**
   * The account's receipts processed in {@code [from, to]}, expired ones included (they still
   * record a payment): the receipt key starts with the processing time, so this reads only them.
   */
  public List<Receipt> receiptsBetween(String accountId, Instant from, Instant to) {
    return reader.readAll(
        List.of(
            QueryRequest.builder()
                .tableName(tables.billing())
                .keyConditionExpression("PK = :pk AND SK BETWEEN :from AND :to")
                .expressionAttributeValues(
                    Map.of(
                        ":pk",
                        s(Keys.account(accountId)),
                        ":from",
                        s("REC#" + Timestamps.format(from)),
                        // '$' sorts after '#': every receipt of the last millisecond is included.
                        ":to",
                        s("REC#" + Timestamps.format(to) + "$")))
                .consistentRead(true)
                .build()),
        ReceiptItems::fromItem);
  }
}
