package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Period;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The seven access patterns plus the API's reads, page by page. */
class AccessPatternsTest extends StoreTestBase {
  private static final LocalDate FEB_12 = LocalDate.of(2026, 2, 12);
  private static final LocalDate FEB_13 = LocalDate.of(2026, 2, 13);
  private static final LocalDate FEB_15 = LocalDate.of(2026, 2, 15);

  @Test
  void subscriptionsByAccountPageThroughExactlyThatAccountsSubscriptions() {
    String account = id("acc");
    List<Subscription> subs = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      subs.add(create(Fixtures.subscription(account, id("s" + i))));
    }
    create(Fixtures.subscription(id("other"), id("s9")));
    RecordInput paid =
        Fixtures.paid(subs.get(0), 1, "txn-1", Instant.parse("2026-02-15T07:00:00Z"));
    store.updateSubscription(paid); // adds a receipt and a period to the account

    Page<Subscription> first = store.getSubscriptionsByAccount(account, PageRequest.first(2));
    Page<Subscription> second =
        store.getSubscriptionsByAccount(account, new PageRequest(first.nextPageToken(), 2));
    Page<Subscription> third =
        store.getSubscriptionsByAccount(account, new PageRequest(second.nextPageToken(), 2));

    assertThat(first.items()).containsExactly(paid.next(), subs.get(1));
    assertThat(second.items()).containsExactly(subs.get(2), subs.get(3));
    assertThat(third.items()).containsExactly(subs.get(4));
    assertThat(third.nextPageToken()).isNull();
  }

  /** DynamoDB cannot know that a full page was the last one: the next page is then empty. */
  @Test
  void aFullLastPageIsFollowedByAnEmptyOne() {
    String account = id("acc");
    Subscription s1 = create(Fixtures.subscription(account, id("s1")));
    Subscription s2 = create(Fixtures.subscription(account, id("s2")));

    Page<Subscription> first = store.getSubscriptionsByAccount(account, PageRequest.first(2));
    Page<Subscription> second =
        store.getSubscriptionsByAccount(account, new PageRequest(first.nextPageToken(), 2));

    assertThat(first.items()).containsExactly(s1, s2);
    assertThat(first.nextPageToken()).isNotNull();
    assertThat(second.items()).isEmpty();
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void receiptsComeNewestFirstWithoutExpiredOnesAndPagesRefillPastThem() {
    String account = id("acc");
    Subscription s = create(Fixtures.subscription(account, id("s1")));
    DynamoBillingStore oneMonth =
        new DynamoBillingStore(
            client, tables, new StoreSettings(java.time.Period.ofMonths(1), Fixtures.KEY));
    store.createReceipt(receipt(s, 1, "2026-01-05T08:00:00Z")); // expires 2027-01-05: gone
    store.createReceipt(receipt(s, 2, "2026-03-05T08:00:00Z")); // expires 2027-03-05
    oneMonth.createReceipt(receipt(s, 3, "2026-06-05T08:00:00Z")); // expires 2026-07-05: gone
    store.createReceipt(receipt(s, 4, "2026-09-05T08:00:00Z")); // expires 2027-09-05
    oneMonth.createReceipt(receipt(s, 5, "2026-12-05T08:00:00Z")); // expires 2027-01-05: gone
    store.createReceipt(receipt(s, 6, "2027-01-05T08:00:00Z")); // expires 2028-01-05
    Instant now = Instant.parse("2027-01-20T00:00:00Z");

    Page<Receipt> first = store.getReceiptsByAccount(account, now, PageRequest.first(2));
    Page<Receipt> second =
        store.getReceiptsByAccount(account, now, new PageRequest(first.nextPageToken(), 2));

    assertThat(first.items())
        .containsExactly(
            stored(receipt(s, 6, "2027-01-05T08:00:00Z"), 1830672000L),
            stored(receipt(s, 4, "2026-09-05T08:00:00Z"), 1820131200L));
    assertThat(second.items())
        .containsExactly(stored(receipt(s, 2, "2026-03-05T08:00:00Z"), 1804233600L));
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void aReceiptDisappearsAtTheSecondItExpires() {
    String account = id("acc");
    Subscription s = create(Fixtures.subscription(account, id("s1")));
    Receipt receipt = receipt(s, 1, "2026-01-05T10:00:00.000Z");
    store.createReceipt(receipt);

    assertThat(
            billingItem(
                "ACC#" + account,
                "REC#2026-01-05T10:00:00.000Z#SKU#SKU-PRO#" + s.subscriptionId() + "#1"))
        .containsEntry("ExpiresAt", AttributeValue.fromN("1799143200")); // 2027-01-05T10:00:00Z
    assertThat(
            store
                .getReceiptsByAccount(
                    account, Instant.parse("2027-01-05T09:59:59.999Z"), PageRequest.first(10))
                .items())
        .containsExactly(stored(receipt, 1799143200L));
    assertThat(
            store
                .getReceiptsByAccount(
                    account, Instant.parse("2027-01-05T10:00:00Z"), PageRequest.first(10))
                .items())
        .isEmpty();
  }

  @Test
  void periodsOfOneSubscriptionOldestFirst() {
    String account = id("acc");
    Subscription s = create(Fixtures.subscription(account, id("s1")));
    // Same prefix plus a digit: "PER#s1-x#" must not match "PER#s1-x0#".
    Subscription sibling = create(Fixtures.subscription(account, s.subscriptionId() + "0"));
    store.updateSubscription(
        Fixtures.paid(sibling, 1, "txn-sib", Instant.parse("2026-02-15T07:00:00Z")));
    List<Period> periods = new ArrayList<>();
    Subscription current = s;
    for (int month = 2; month <= 4; month++) {
      RecordInput paid =
          Fixtures.paid(
              current, 1, "txn-" + month, Instant.parse("2026-0" + month + "-15T07:00:00Z"));
      store.updateSubscription(paid);
      periods.add(paid.period());
      current = paid.next();
    }

    Page<Period> first = store.getPeriods(account, s.subscriptionId(), PageRequest.first(2));
    Page<Period> second =
        store.getPeriods(account, s.subscriptionId(), new PageRequest(first.nextPageToken(), 2));

    assertThat(first.items()).containsExactly(periods.get(0), periods.get(1));
    assertThat(first.items())
        .extracting(Period::dueDate)
        .containsExactly(LocalDate.of(2026, 2, 15), LocalDate.of(2026, 3, 15));
    // The next cycle, not charged yet, is listed last as SCHEDULED.
    assertThat(second.items())
        .containsExactly(
            periods.get(2), Fixtures.scheduled(current, Instant.parse("2026-04-15T07:00:00Z")));
  }

  @Test
  void historyOldestFirstAcrossPages() {
    String account = id("acc");
    Subscription s = create(Fixtures.subscription(account, id("s1")));
    Subscription current = s;
    for (int month = 2; month <= 4; month++) {
      RecordInput paid =
          Fixtures.paid(
              current, 1, "txn-" + month, Instant.parse("2026-0" + month + "-15T07:00:00Z"));
      store.updateSubscription(paid);
      current = paid.next();
    }

    Page<HistoryEntry> first = store.getHistory(s.subscriptionId(), PageRequest.first(3));
    Page<HistoryEntry> second =
        store.getHistory(s.subscriptionId(), new PageRequest(first.nextPageToken(), 3));

    assertThat(first.items())
        .extracting(HistoryEntry::version, HistoryEntry::at, HistoryEntry::event)
        .containsExactly(
            tuple(1L, Fixtures.CREATED, HistoryEvent.SUBSCRIPTION_CREATED),
            tuple(2L, Instant.parse("2026-02-15T07:00:00Z"), HistoryEvent.PAYMENT_SUCCEEDED),
            tuple(3L, Instant.parse("2026-03-15T07:00:00Z"), HistoryEvent.PAYMENT_SUCCEEDED));
    assertThat(second.items())
        .extracting(HistoryEntry::version, HistoryEntry::cycle, e -> e.snapshot())
        .containsExactly(tuple(4L, 3L, current));
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void remindersDueOnADayFromGsi1() {
    Subscription a1 =
        create(due(id("accA"), id("s1"), FEB_12, Instant.parse("2026-01-12T08:00:00Z"), null));
    Subscription a2 = create(due(id("accA"), id("s2"), FEB_12, null, null));
    Subscription b3 =
        create(due(id("accB"), id("s3"), FEB_12, Instant.parse("2025-12-12T08:00:00Z"), null));
    create(due(id("accB"), id("s4"), FEB_13, null, null));

    Page<DueReminder> first = store.getDueRemindersByDate(FEB_12, PageRequest.first(2));
    Page<DueReminder> second =
        store.getDueRemindersByDate(FEB_12, new PageRequest(first.nextPageToken(), 2));

    // Every shard of the date is read, shard after shard (the seeds' order within one shard:
    // DueDateShardingTest); two pages of two hold the three reminders of the day.
    assertThat(first.items()).hasSize(2);
    assertThat(concat(first.items(), second.items()))
        .containsExactlyInAnyOrder(
            new DueReminder(
                id("accB"),
                b3.subscriptionId(),
                "SKU-PRO",
                "ada@example.com",
                FEB_12,
                FEB_15,
                Instant.parse("2025-12-12T08:00:00Z")),
            new DueReminder(
                id("accA"),
                a1.subscriptionId(),
                "SKU-PRO",
                "ada@example.com",
                FEB_12,
                FEB_15,
                Instant.parse("2026-01-12T08:00:00Z")),
            new DueReminder(
                id("accA"),
                a2.subscriptionId(),
                "SKU-PRO",
                "ada@example.com",
                FEB_12,
                FEB_15,
                null));
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void paymentsDueOnADayFromGsi2() {
    Subscription a1 =
        create(due(id("accA"), id("s1"), FEB_12, null, Instant.parse("2026-01-15T07:00:00Z")));
    Subscription b2 = create(due(id("accB"), id("s2"), FEB_12, null, null));
    create(Fixtures.subscription(id("accB"), id("s3")).scheduledFor(2)); // due 2026-03-15

    Page<DuePayment> page = store.getDuePaymentsByDate(FEB_15, PageRequest.first(5));

    assertThat(page.items())
        .containsExactlyInAnyOrder(
            new DuePayment(
                id("accA"),
                a1.subscriptionId(),
                "SKU-PRO",
                "ada@example.com",
                15,
                Fixtures.PRICE,
                Fixtures.CARD,
                FEB_15,
                Instant.parse("2026-01-15T07:00:00Z")),
            new DuePayment(
                id("accB"),
                b2.subscriptionId(),
                "SKU-PRO",
                "ada@example.com",
                15,
                Fixtures.PRICE,
                Fixtures.CARD,
                FEB_15,
                null));
    assertThat(page.nextPageToken()).isNull();
  }

  @Test
  void onlySubscriptionsWithDatesDueAreInTheIndexes() {
    String account = id("acc");
    Subscription paid = create(Fixtures.subscription(account, id("s1")));
    Subscription reminded = create(Fixtures.subscription(account, id("s2")));
    Subscription cancelled = create(Fixtures.subscription(account, id("s3")));
    store.updateSubscription(
        Fixtures.paid(paid, 1, "txn-1", Instant.parse("2026-02-15T07:00:00Z")));
    store.updateSubscription(
        Fixtures.reminderSent(reminded, Instant.parse("2026-02-12T08:00:00Z")));
    store.updateSubscription(
        new RecordInput(
            "cancel",
            cancelled,
            cancelled.withStatus(SubscriptionStatus.CANCELLED).withNothingDue().withVersion(2),
            HistoryEvent.SUBSCRIPTION_CANCELLED,
            Process.API,
            "api:ada",
            null,
            null,
            null,
            Instant.parse("2026-02-01T00:00:00Z")));

    // Paid: moved to March in both; reminded: left GSI-1 only; cancelled: left both.
    assertThat(indexKeys(Keys.GSI_REMINDERS))
        .containsExactlyInAnyOrder("SUB#" + paid.subscriptionId() + "#SKU#SKU-PRO|2026-03-12");
    assertThat(indexKeys(Keys.GSI_PAYMENTS))
        .containsExactlyInAnyOrder(
            "SUB#" + paid.subscriptionId() + "#SKU#SKU-PRO|2026-03-15",
            "SUB#" + reminded.subscriptionId() + "#SKU#SKU-PRO|2026-02-15");
    assertThat(store.getDuePaymentsByDate(FEB_15, PageRequest.first(10)).items())
        .extracting(DuePayment::subscriptionId)
        .containsExactly(reminded.subscriptionId());
    assertThat(store.getDueRemindersByDate(FEB_12, PageRequest.first(10)).items()).isEmpty();
  }

  @Test
  void aTokenOnlyContinuesTheQueryItCameFrom() {
    String account = id("acc");
    create(Fixtures.subscription(account, id("s1")));
    create(Fixtures.subscription(account, id("s2")));
    create(due(id("accB"), id("s3"), FEB_12, null, null));
    String subsToken =
        store.getSubscriptionsByAccount(account, PageRequest.first(1)).nextPageToken();
    String remindersToken =
        store.getDueRemindersByDate(FEB_12, PageRequest.first(1)).nextPageToken();
    DynamoBillingStore otherKey =
        new DynamoBillingStore(
            client,
            tables,
            StoreSettings.defaults(
                "another-key-of-at-least-32-bytes".getBytes(StandardCharsets.US_ASCII)));
    assertThat(subsToken).isNotNull();
    assertThat(remindersToken).isNotNull();

    assertInvalid(() -> store.getSubscriptionsByAccount(id("accB"), new PageRequest(subsToken, 1)));
    assertInvalid(
        () -> store.getReceiptsByAccount(account, Instant.EPOCH, new PageRequest(subsToken, 1)));
    assertInvalid(() -> store.getPeriods(account, id("s1"), new PageRequest(subsToken, 1)));
    assertInvalid(() -> store.getHistory(id("s1"), new PageRequest(subsToken, 1)));
    assertInvalid(() -> store.getDueRemindersByDate(FEB_13, new PageRequest(remindersToken, 1)));
    assertInvalid(() -> store.getDuePaymentsByDate(FEB_12, new PageRequest(remindersToken, 1)));
    assertInvalid(() -> otherKey.getSubscriptionsByAccount(account, new PageRequest(subsToken, 1)));
    assertInvalid(
        () -> store.getSubscriptionsByAccount(account, new PageRequest(subsToken + "A", 1)));
    assertInvalid(() -> store.getSubscriptionsByAccount(account, new PageRequest("garbage", 1)));
    // The same token, unchanged, still works.
    assertThat(store.getSubscriptionsByAccount(account, new PageRequest(subsToken, 1)).items())
        .extracting(Subscription::subscriptionId)
        .containsExactly(id("s2"));
  }

  @Test
  void aTokenOfAnotherTableIsRejected() {
    String account = id("acc");
    create(Fixtures.subscription(account, id("s1")));
    create(Fixtures.subscription(account, id("s2")));
    String token = store.getSubscriptionsByAccount(account, PageRequest.first(1)).nextPageToken();
    TableNames otherTables = new TableNames("other_" + unique, "other-history_" + unique);
    BillingTables.createIfMissing(client, otherTables);
    try {
      DynamoBillingStore other =
          new DynamoBillingStore(client, otherTables, StoreSettings.defaults(Fixtures.KEY));

      assertInvalid(() -> other.getSubscriptionsByAccount(account, new PageRequest(token, 1)));
    } finally {
      client.deleteTable(r -> r.tableName(otherTables.billing()));
      client.deleteTable(r -> r.tableName(otherTables.history()));
    }
  }

  private Subscription create(Subscription subscription) {
    store.createSubscription(Fixtures.created(subscription));
    return subscription;
  }

  /** A first-cycle subscription with the given reminder date and last reminder/payment times. */
  private static Subscription due(
      String account,
      String id,
      LocalDate nextReminder,
      Instant lastReminderAt,
      Instant lastPaymentAt) {
    Subscription s = Fixtures.subscription(account, id);
    return new Subscription(
        account,
        id,
        s.sku(),
        s.price(),
        s.email(),
        s.paymentMethod(),
        s.schedule(),
        s.status(),
        s.cycle(),
        nextReminder,
        s.nextPaymentDate(),
        lastReminderAt,
        lastPaymentAt,
        s.createdAt(),
        s.version(),
        s.requestHash());
  }

  private static Receipt receipt(Subscription s, long cycle, String processedAt) {
    return Fixtures.receipt(s, cycle, Instant.parse(processedAt), "txn-" + cycle);
  }

  private static Receipt stored(Receipt r, long expiresAtEpochSecond) {
    return new Receipt(
        r.accountId(),
        r.subscriptionId(),
        r.cycle(),
        r.sku(),
        r.email(),
        r.amount(),
        r.processedAt(),
        r.transactionId(),
        r.paymentMask(),
        Instant.ofEpochSecond(expiresAtEpochSecond));
  }

  /** Every entry of a GSI as "SK|date of its index partition key" (the shard suffix left out). */
  private List<String> indexKeys(String index) {
    String partition = index.equals(Keys.GSI_REMINDERS) ? "NextReminderDate" : "NextPaymentDate";
    return client.scan(r -> r.tableName(tables.billing()).indexName(index)).items().stream()
        .map(
            (Map<String, AttributeValue> item) ->
                item.get("SK").s() + "|" + DateKeySharding.dateOf(item.get(partition).s()))
        .toList();
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static void assertInvalid(ThrowingCallable call) {
    assertThatThrownBy(call).isExactlyInstanceOf(InvalidPageTokenException.class);
  }
}
