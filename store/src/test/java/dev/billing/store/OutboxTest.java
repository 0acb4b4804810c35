package dev.billing.store;

import static dev.billing.store.Fixtures.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.RecordResult;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The outbox: events written in their change's transaction, once, and read three ways. */
class OutboxTest extends StoreTestBase {
  private static final Instant PAID = Instant.parse("2026-02-15T08:00:00.125Z");

  private String account;
  private String sub;
  private Subscription v1;
  private MerchantEventStore events;

  @BeforeEach
  void names() {
    account = id("acc");
    sub = id("s_1"); // an underscore, as ids may have: event ids are read from the right
    v1 = Fixtures.subscription(account, sub);
    events = new MerchantEventStore(store, Fixtures.KEY);
  }

  private List<OutboxEvent> ofSubscription() {
    return events
        .list(new MerchantEventStore.Query(null, sub, null), PageRequest.first(200))
        .items();
  }

  private List<Map<String, AttributeValue>> eventItems() {
    return client
        .query(
            r ->
                r.tableName(tables.billing())
                    .consistentRead(true)
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :evt)")
                    .expressionAttributeValues(
                        Map.of(
                            ":pk", AttributeValue.fromS("SUB#" + sub),
                            ":evt", AttributeValue.fromS("EVT#"))))
        .items();
  }

  private RecordInput declined(Subscription current, Instant at) {
    Period unpaid =
        new Period(
            account,
            sub,
            current.cycle(),
            current.schedule().dueDate(current.cycle()),
            current.price(),
            PeriodStatus.ERROR,
            1,
            null,
            "insufficient_funds",
            "Your card has insufficient funds.",
            at);
    return new RecordInput(
        "cycle-1/charge-1",
        current,
        current.withStatus(SubscriptionStatus.PAST_DUE).withVersion(current.version() + 1),
        HistoryEvent.PAYMENT_FAILED,
        Process.INITIAL,
        "system",
        "payment failed",
        unpaid,
        null,
        at);
  }

  @Test
  void aCreationWritesItsEventWithTheSubscriptionAsRecorded() {
    store.createSubscription(Fixtures.created(v1));

    OutboxEvent created = events.find("evt_" + sub + "_1_0").orElseThrow();
    assertThat(created.type()).isEqualTo(MerchantEventType.SUBSCRIPTION_CREATED);
    assertThat(created.accountId()).isEqualTo(account);
    assertThat(created.version()).isEqualTo(1);
    assertThat(created.sequence()).isZero();
    assertThat(created.createdAt()).isEqualTo(CREATED);
    assertThat(created.subscription()).isEqualTo(v1);
    assertThat(created.period()).isNull();
    assertThat(created.receipt()).isNull();
    int shard = store.sharding().shardOf(sub);
    assertThat(created.undelivered()).isEqualTo("2026-01-10#" + shard);
    assertThat(eventItems())
        .singleElement()
        .satisfies(
            item -> {
              assertThat(item.get("SK").s()).isEqualTo("EVT#000000000001#00");
              assertThat(item.get("Type").s()).isEqualTo("EVENT");
              assertThat(item.get("EventTypeShard").s()).isEqualTo("subscription.created#" + shard);
              assertThat(item.get("EventAccount").s()).isEqualTo(account);
              assertThat(item.get("EventAt").s())
                  .isEqualTo("2026-01-10T09:00:00.000Z#" + sub + "#EVT#000000000001#00");
            });
  }

  @Test
  void aChangeOfTwoEventsNumbersThemInOrderWithItsPeriod() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput failed = declined(v1, PAID);
    store.updateSubscription(failed);

    assertThat(ofSubscription())
        .extracting(OutboxEvent::id, OutboxEvent::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "evt_" + sub + "_2_1", MerchantEventType.SUBSCRIPTION_PAST_DUE),
            org.assertj.core.groups.Tuple.tuple(
                "evt_" + sub + "_2_0", MerchantEventType.PAYMENT_FAILED),
            org.assertj.core.groups.Tuple.tuple(
                "evt_" + sub + "_1_0", MerchantEventType.SUBSCRIPTION_CREATED));
    OutboxEvent payment = events.find("evt_" + sub + "_2_0").orElseThrow();
    assertThat(payment.period()).isEqualTo(failed.period());
    assertThat(payment.subscription()).isEqualTo(failed.next());
    assertThat(events.find("evt_" + sub + "_2_1").orElseThrow().period()).isNull();
  }

  @Test
  void aPaidCycleCarriesItsPeriodAndReceipt() {
    store.createSubscription(Fixtures.created(v1));
    RecordInput paid = Fixtures.paid(v1, 1, "ch_1", PAID);
    store.updateSubscription(paid);

    OutboxEvent payment = events.find("evt_" + sub + "_2_0").orElseThrow();
    assertThat(payment.type()).isEqualTo(MerchantEventType.PAYMENT_SUCCEEDED);
    assertThat(payment.period()).isEqualTo(paid.period());
    assertThat(payment.receipt().transactionId()).isEqualTo("ch_1");
    assertThat(payment.receipt().amount()).isEqualTo(paid.receipt().amount());
    assertThat(events.find("evt_" + sub + "_2_1").orElseThrow().type())
        .isEqualTo(MerchantEventType.SUBSCRIPTION_ACTIVATED);
  }

  /**
   * A retry whose content differs (a later time) passes DynamoDB's request token: only the
   * conditions keep it from writing, and the events are among what it does not write twice.
   */
  @Test
  void aRetriedChangeWritesItsEventsOnce() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(declined(v1, PAID));

    assertThat(store.updateSubscription(declined(v1, PAID.plusSeconds(30))))
        .isEqualTo(new RecordResult(2, true));
    assertThat(store.createSubscription(Fixtures.created(v1))).isEqualTo(new RecordResult(1, true));

    assertThat(eventItems()).hasSize(3);
    assertThat(events.find("evt_" + sub + "_2_0").orElseThrow().createdAt()).isEqualTo(PAID);
  }

  @Test
  void aChangeThatIsNotWrittenWritesNoEvent() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(Fixtures.reminderSent(v1, PAID.minusSeconds(3600)));

    // Another change at the same version: stale, so neither it nor its events are written.
    assertThatThrownBy(() -> store.updateSubscription(declined(v1, PAID)))
        .isExactlyInstanceOf(StaleWriteException.class);
    assertThat(ofSubscription())
        .extracting(OutboxEvent::type)
        .containsExactly(MerchantEventType.SUBSCRIPTION_CREATED);
  }

  @Test
  void anEventItemInTheWayStopsTheWholeChange() {
    store.createSubscription(Fixtures.created(v1));
    client.putItem(
        r ->
            r.tableName(tables.billing())
                .item(
                    Map.of(
                        "PK", AttributeValue.fromS("SUB#" + sub),
                        "SK", AttributeValue.fromS("EVT#000000000002#00"))));

    assertThatThrownBy(() -> store.updateSubscription(declined(v1, PAID)))
        .isExactlyInstanceOf(StaleWriteException.class)
        .hasMessageContaining("event evt_" + sub + "_2_0 already exists");
    assertThat(store.getSubscription(account, sub).orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void listsByAccountAndTypeNewestFirstInPagesWithFilters() {
    String other = id("s_2");
    store.createSubscription(Fixtures.created(v1));
    Subscription second = Fixtures.subscription(account, other);
    store.createSubscription(
        new RecordInput(
            "create",
            null,
            second,
            HistoryEvent.SUBSCRIPTION_CREATED,
            Process.API,
            "api",
            null,
            null,
            null,
            CREATED.plusSeconds(60)));
    store.updateSubscription(declined(v1, PAID));

    List<String> all = new ArrayList<>();
    String token = null;
    do {
      Page<OutboxEvent> page =
          events.list(new MerchantEventStore.Query(account, null, null), new PageRequest(token, 2));
      page.items().forEach(e -> all.add(e.id()));
      token = page.nextPageToken();
    } while (token != null);
    assertThat(all)
        .containsExactly(
            "evt_" + sub + "_2_1",
            "evt_" + sub + "_2_0",
            "evt_" + other + "_1_0",
            "evt_" + sub + "_1_0");

    assertThat(
            events
                .list(
                    new MerchantEventStore.Query(
                        account, null, MerchantEventType.SUBSCRIPTION_CREATED),
                    PageRequest.first(50))
                .items())
        .extracting(OutboxEvent::id)
        .containsExactly("evt_" + other + "_1_0", "evt_" + sub + "_1_0");
    assertThat(
            events
                .list(
                    new MerchantEventStore.Query(null, null, MerchantEventType.PAYMENT_FAILED),
                    PageRequest.first(50))
                .items())
        .extracting(OutboxEvent::id)
        .containsExactly("evt_" + sub + "_2_0");
    assertThat(
            events
                .list(new MerchantEventStore.Query("another", sub, null), PageRequest.first(50))
                .items())
        .isEmpty();
    assertThat(
            events
                .list(
                    new MerchantEventStore.Query(account, sub, MerchantEventType.PAYMENT_FAILED),
                    PageRequest.first(50))
                .items())
        .extracting(OutboxEvent::id)
        .containsExactly("evt_" + sub + "_2_0");
  }

  @Test
  void aPageTokenContinuesOnlyItsOwnQuery() {
    store.createSubscription(Fixtures.created(v1));
    store.updateSubscription(declined(v1, PAID));
    String token =
        events
            .list(new MerchantEventStore.Query(null, sub, null), PageRequest.first(1))
            .nextPageToken();

    assertThat(token).isNotNull();
    assertThatThrownBy(
            () ->
                events.list(
                    new MerchantEventStore.Query(
                        null, sub, MerchantEventType.SUBSCRIPTION_PAST_DUE),
                    new PageRequest(token, 1)))
        .isInstanceOf(InvalidPageTokenException.class);
  }

  @Test
  void undeliveredEventsAreInTheirDaysShard() {
    store.createSubscription(Fixtures.created(v1));
    String key = "2026-01-10#" + store.sharding().shardOf(sub);

    List<Map<String, AttributeValue>> owed =
        client
            .query(
                r ->
                    r.tableName(tables.billing())
                        .indexName("EventsUndelivered")
                        .keyConditionExpression("Undelivered = :k")
                        .expressionAttributeValues(Map.of(":k", AttributeValue.fromS(key))))
            .items();
    assertThat(owed)
        .singleElement()
        .extracting(item -> item.get("SK").s())
        .isEqualTo("EVT#000000000001#00");
  }

  @Test
  void anIdThatIsNoEventsFindsNothing() {
    store.createSubscription(Fixtures.created(v1));

    for (String id :
        List.of(
            "evt_" + sub + "_01_0",
            "evt_" + sub + "_+1_0",
            "evt_" + sub + "_1_100",
            "evt_" + sub + "_0_0",
            "evt__1_0",
            "evt_1_0",
            "ev_" + sub + "_1_0",
            "evt_" + sub + "_1",
            "evt_a#b_1_0",
            "")) {
      assertThat(events.find(id)).as(id).isEmpty();
    }
    assertThat(events.find("evt_" + sub + "_1_0")).isPresent();
  }
}
