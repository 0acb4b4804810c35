package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The due-date indexes' keys are write-sharded; the due-date reads fan out over the shards. */
class DueDateShardingTest extends LocalDynamoDbTestBase {
  private static final LocalDate FEB_12 = LocalDate.of(2026, 2, 12);
  private static final LocalDate FEB_15 = LocalDate.of(2026, 2, 15);
  private static final LocalDate MAR_15 = LocalDate.of(2026, 3, 15);

  private TableNames tables;
  private DynamoBillingStore store;

  @BeforeEach
  void fourShards() {
    tables = uniqueTableNames();
    BillingTables.createIfMissing(client, tables);
    store =
        new DynamoBillingStore(
            client, tables, new StoreSettings(Period.ofMonths(12), Fixtures.KEY, 4));
  }

  @AfterEach
  void dropTables() {
    client.deleteTable(r -> r.tableName(tables.billing()));
    client.deleteTable(r -> r.tableName(tables.history()));
  }

  @Test
  void theFirstStoreOnATableFixesItsShardCountAndEveryLaterOneReadsIt() {
    assertThat(store.sharding().shards()).isEqualTo(4);
    assertThat(
            client
                .getItem(
                    r ->
                        r.tableName(tables.billing())
                            .key(
                                Map.of(
                                    "PK",
                                    AttributeValue.fromS("META#TABLE"),
                                    "SK",
                                    AttributeValue.fromS("DATE_KEY_SHARDS"))))
                .item())
        .containsEntry("Shards", AttributeValue.fromN("4"));

    DynamoBillingStore configuredOtherwise =
        new DynamoBillingStore(
            client, tables, new StoreSettings(Period.ofMonths(12), Fixtures.KEY, 32));

    assertThat(configuredOtherwise.sharding().shards()).isEqualTo(4);
  }

  @Test
  void theShardIsAStableHashOfTheSubscriptionIdSpreadEvenly() {
    DateKeySharding sixteen = DateKeySharding.of(16);
    // Pinned: items already written keep their keys, so the rule may never change.
    assertThat(sixteen.shardOf("sub_7f3a")).isEqualTo(11);
    assertThat(DateKeySharding.of(256).shardOf("sub_7f3a")).isEqualTo(75);
    assertThat(DateKeySharding.of(1).shardOf("sub_7f3a")).isZero();
    int[] counts = new int[16];
    IntStream.range(0, 16_000).forEach(i -> counts[sixteen.shardOf("sub_" + i)]++);
    // 1,000 expected per shard; a uniform hash stays within a few standard deviations (~31).
    assertThat(IntStream.of(counts).boxed().toList()).allMatch(c -> c > 880 && c < 1120);
    assertThat(sixteen.key(FEB_15, sixteen.shardOf("sub_7f3a"))).isEqualTo("2026-02-15#11");
    assertThat(DateKeySharding.dateOf("2026-02-15#11")).isEqualTo(FEB_15);
    assertThat(DateKeySharding.dateOf("2026-02-15")).isEqualTo(FEB_15);
    assertThatThrownBy(() -> DateKeySharding.of(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DateKeySharding.of(257)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aSubscriptionKeepsItsShardWhenItsDatesMove() {
    Subscription s = create("acc-1", "sub-1");
    store.updateSubscription(Fixtures.paid(s, 1, "txn-1", Instant.parse("2026-02-15T07:00:00Z")));

    Map<String, AttributeValue> item =
        client
            .getItem(
                r ->
                    r.tableName(tables.billing())
                        .key(
                            Map.of(
                                "PK", AttributeValue.fromS("ACC#" + id("acc-1")),
                                "SK", AttributeValue.fromS("SUB#" + id("sub-1") + "#SKU#SKU-PRO"))))
            .item();
    int shard = store.sharding().shardOf(id("sub-1"));
    assertThat(item.get("NextPaymentDate").s()).isEqualTo("2026-03-15#" + shard);
    assertThat(item.get("NextReminderDate").s()).isEqualTo("2026-03-12#" + shard);
    // The domain value and the history snapshot carry the dates without the index's suffix.
    assertThat(store.getSubscription(id("acc-1"), id("sub-1")).orElseThrow().nextPaymentDate())
        .isEqualTo(MAR_15);
    assertThat(
            store
                .getHistory(id("sub-1"), PageRequest.first(5))
                .items()
                .get(1)
                .snapshot()
                .nextPaymentDate())
        .isEqualTo(MAR_15);
  }

  @Test
  void pagesFillAcrossShardsAndEndWithTheLastShard() {
    Set<String> due = new HashSet<>();
    Set<Integer> shardsUsed = new HashSet<>();
    // Ids carry the run's random suffix, so shards vary: go on until every shard holds one.
    for (int i = 0; i < 23 || shardsUsed.size() < 4; i++) {
      due.add(create("acc-" + i, "sub-" + i).subscriptionId());
      shardsUsed.add(store.sharding().shardOf(id("sub-" + i)));
    }
    create("acc-x", "sub-x", 2); // due in March: another date's shards

    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Page<DuePayment> page = store.getDuePaymentsByDate(FEB_15, new PageRequest(token, 5));
      assertThat(page.items()).hasSizeLessThanOrEqualTo(5);
      page.items()
          .forEach(
              p -> {
                assertThat(p.nextPaymentDate()).isEqualTo(FEB_15);
                seen.add(p.subscriptionId());
              });
      token = page.nextPageToken();
      pages++;
    } while (token != null);

    assertThat(seen).hasSize(due.size()).containsExactlyInAnyOrderElementsOf(due);
    int full = (due.size() + 4) / 5;
    assertThat(pages).isBetween(full, full + 1); // pages of 5, perhaps an empty last one
    List<String> reminders = new ArrayList<>();
    String reminderToken = null;
    do {
      Page<DueReminder> page =
          store.getDueRemindersByDate(FEB_12, new PageRequest(reminderToken, 7));
      page.items().forEach(r -> reminders.add(r.subscriptionId()));
      reminderToken = page.nextPageToken();
    } while (reminderToken != null);
    assertThat(reminders).containsExactlyInAnyOrderElementsOf(due);
  }

  @Test
  void aShardedPageTokenIsSignedAndBoundToItsDateIndexAndShardCount() {
    Set<Integer> shardsUsed = new HashSet<>();
    // At least six, and one in shard 3 (read from its start below); shards vary with the ids'
    // suffix.
    for (int i = 0; i < 6 || !shardsUsed.contains(3); i++) {
      create("acc-" + i, "sub-" + i);
      shardsUsed.add(store.sharding().shardOf(id("sub-" + i)));
    }
    String token = store.getDuePaymentsByDate(FEB_15, PageRequest.first(1)).nextPageToken();
    assertThat(token).isNotNull();

    assertInvalid(() -> store.getDuePaymentsByDate(MAR_15, new PageRequest(token, 1)));
    assertInvalid(() -> store.getDueRemindersByDate(FEB_15, new PageRequest(token, 1)));
    assertInvalid(() -> store.getSubscriptionsByAccount(id("acc-1"), new PageRequest(token, 1)));
    // A position the query never issued (a shard past its count), even when properly signed.
    PageTokens tokens = new PageTokens(Fixtures.KEY);
    String scope = String.join("|", tables.billing(), Keys.GSI_PAYMENTS, "2026-02-15", "shards=4");
    String pastTheEnd = tokens.encodePosition(scope, new ReadPosition(4, null));
    assertInvalid(() -> store.getDuePaymentsByDate(FEB_15, new PageRequest(pastTheEnd, 1)));
    // The shard changed under the original signature.
    String payload =
        new String(
            Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
            StandardCharsets.UTF_8);
    java.util.regex.Matcher shard =
        java.util.regex.Pattern.compile("\"s\":(\\d+)").matcher(payload);
    assertThat(shard.find()).isTrue();
    int other = (Integer.parseInt(shard.group(1)) + 1) % 4;
    String steered = shard.replaceFirst("\"s\":" + other);
    String forged =
        Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(steered.getBytes(StandardCharsets.UTF_8))
            + token.substring(token.indexOf('.'));
    assertInvalid(() -> store.getDuePaymentsByDate(FEB_15, new PageRequest(forged, 1)));
    // A position the query did issue reads on: shard 3 from its start.
    String shard3 = tokens.encodePosition(scope, new ReadPosition(3, null));
    assertThat(store.getDuePaymentsByDate(FEB_15, new PageRequest(shard3, 100)).items())
        .isNotEmpty()
        .allMatch(p -> store.sharding().shardOf(p.subscriptionId()) == 3);
  }

  @Test
  void withinOneShardTheIndexKeepsTheSeedsOrder() {
    TableNames single = new TableNames("single_" + unique, "single-history_" + unique);
    BillingTables.createIfMissing(client, single);
    try {
      DynamoBillingStore one =
          new DynamoBillingStore(
              client, single, new StoreSettings(Period.ofMonths(12), Fixtures.KEY, 1));
      Subscription a = reminded("sub-a", Instant.parse("2026-01-12T08:00:00Z"));
      Subscription b = reminded("sub-b", null);
      Subscription c = reminded("sub-c", Instant.parse("2025-12-12T08:00:00Z"));
      for (Subscription s : List.of(a, b, c)) {
        one.createSubscription(Fixtures.created(s));
      }

      // Ordered by LastReminderDate; "NEVER" sorts after every timestamp.
      assertThat(one.getDueRemindersByDate(FEB_12, PageRequest.first(10)).items())
          .extracting(DueReminder::subscriptionId)
          .containsExactly(c.subscriptionId(), a.subscriptionId(), b.subscriptionId());
    } finally {
      client.deleteTable(r -> r.tableName(single.billing()));
      client.deleteTable(r -> r.tableName(single.history()));
    }
  }

  @Test
  void reconciliationReadsEveryShardByCursorAndPaidWindows() {
    Set<String> due = new HashSet<>();
    Set<String> paid = new HashSet<>();
    for (int i = 0; i < 12; i++) {
      Subscription s = create("acc-" + i, "sub-" + i);
      due.add(s.subscriptionId());
      if (i % 3 == 0) {
        store.updateSubscription(
            Fixtures.paid(s, 1, "txn-" + i, Instant.parse("2026-02-15T07:00:00Z")));
        due.remove(s.subscriptionId());
        paid.add(s.subscriptionId());
      }
    }
    ReconciliationQueries queries = new ReconciliationQueries(store);

    List<String> seen = new ArrayList<>();
    String cursor = null;
    do {
      ReconciliationQueries.DueBatch batch = queries.duePayments(FEB_15, cursor, 3);
      batch.items().forEach(d -> seen.add(d.subscriptionId()));
      cursor = batch.nextCursor();
    } while (cursor != null);

    assertThat(seen).containsExactlyInAnyOrderElementsOf(due);
    assertThat(
            queries.paidBetween(
                MAR_15,
                Instant.parse("2026-02-15T00:00:00Z"),
                Instant.parse("2026-02-16T00:00:00Z")))
        .extracting(DuePayment::subscriptionId)
        .containsExactlyInAnyOrderElementsOf(paid);
  }

  private Subscription create(String account, String subscription) {
    return create(account, subscription, 1);
  }

  private Subscription create(String account, String subscription, long cycle) {
    Subscription s = Fixtures.subscription(id(account), id(subscription)).scheduledFor(cycle);
    store.createSubscription(Fixtures.created(s));
    return s;
  }

  private Subscription reminded(String subscription, Instant lastReminderAt) {
    Subscription s = Fixtures.subscription(id("acc"), id(subscription));
    return new Subscription(
        s.accountId(),
        s.subscriptionId(),
        s.sku(),
        s.price(),
        s.email(),
        s.paymentMethod(),
        s.schedule(),
        s.status(),
        s.cycle(),
        FEB_12,
        s.nextPaymentDate(),
        lastReminderAt,
        null,
        s.createdAt(),
        s.version(),
        s.requestHash());
  }

  private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    assertThatThrownBy(call).isExactlyInstanceOf(InvalidPageTokenException.class);
  }
}
