package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.PaymentEvent;
import dev.billing.store.events.ChargeOwner;
import dev.billing.store.events.EventRef;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.events.StoredEvent;
import dev.billing.store.events.SubscriptionEvent;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The payment-events table through its store, on DynamoDB Local (the item format asserted raw). */
class PaymentEventStoreTest extends LocalDynamoDbTestBase {
  private static final Instant RECEIVED = Instant.parse("2026-03-10T12:00:07.250Z");

  private String table;
  private PaymentEventStore events;

  @BeforeEach
  void createTable() {
    table = "payment-events_" + unique;
    client.createTable(BillingTables.schema(BillingTables.PAYMENT_EVENTS_SCHEMA, table));
    events = new PaymentEventStore(client, table, Fixtures.KEY);
  }

  @AfterEach
  void dropTable() {
    client.deleteTable(r -> r.tableName(table));
  }

  @Test
  void recordsAnEventOnceAndKeepsTheFirstDelivery() {
    StoredEvent first = succeeded("evt_sb_1", "sub-1", "2026-03-10T12:00:05.123Z");
    StoredEvent redelivered =
        new StoredEvent(
            first.provider(),
            first.eventId(),
            first.type(),
            first.paymentEventType(),
            first.subscriptionId(),
            first.cycle(),
            first.idempotencyKey(),
            first.transactionId(),
            first.occurredAt(),
            RECEIVED.plusSeconds(3600),
            first.summary());

    assertThat(events.recordOnce(first)).isTrue();
    assertThat(events.recordOnce(redelivered)).isFalse();

    assertThat(events.find("sandbox", "evt_sb_1")).contains(first);
    assertThat(client.scan(r -> r.tableName(table)).items()).hasSize(1);
  }

  @Test
  void concurrentDeliveriesStoreTheEventExactlyOnce() throws Exception {
    StoredEvent event = succeeded("evt_sb_race", "sub-1", "2026-03-10T12:00:05.123Z");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Boolean>> deliveries = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        deliveries.add(() -> events.recordOnce(event));
      }
      long stored = 0;
      for (Future<Boolean> result : pool.invokeAll(deliveries)) {
        stored += result.get() ? 1 : 0;
      }
      assertThat(stored).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void writesTheSeedAttributesWithTheExpiryThirtyDaysAfterTheEvent() {
    events.recordOnce(succeeded("evt_sb_1", "sub-1", "2026-03-10T12:00:05.123Z"));

    Map<String, AttributeValue> item =
        client
            .getItem(
                r -> r.tableName(table).key(Map.of("PK", AttributeValue.fromS("sandbox#evt_sb_1"))))
            .item();

    assertThat(item)
        .containsOnlyKeys(
            "PK",
            "Provider",
            "EventId",
            "Type",
            "PaymentEventType",
            "SubscriptionId",
            "Cycle",
            "IdempotencyKey",
            "TransactionId",
            "Timestamp",
            "Date",
            "Time",
            "ReceivedAt",
            "Summary",
            "ExpiresAt");
    assertThat(item.get("Provider").s()).isEqualTo("sandbox");
    assertThat(item.get("EventId").s()).isEqualTo("evt_sb_1");
    assertThat(item.get("Type").s()).isEqualTo("charge.succeeded");
    assertThat(item.get("PaymentEventType").s()).isEqualTo("CHARGE_SUCCEEDED");
    assertThat(item.get("SubscriptionId").s()).isEqualTo("sub-1");
    assertThat(item.get("Cycle").n()).isEqualTo("3");
    assertThat(item.get("IdempotencyKey").s()).isEqualTo("charge:sub-1:3:1");
    assertThat(item.get("TransactionId").s()).isEqualTo("ch_sb_0a1b");
    assertThat(item.get("Timestamp").s()).isEqualTo("2026-03-10T12:00:05.123Z");
    assertThat(item.get("Date").s()).isEqualTo("2026-03-10");
    assertThat(item.get("Time").s()).isEqualTo("12:00:05.123");
    assertThat(item.get("ReceivedAt").s()).isEqualTo("2026-03-10T12:00:07.250Z");
    assertThat(item.get("Summary").m())
        .isEqualTo(
            Map.of(
                "amount", AttributeValue.fromS("9.99"), "currency", AttributeValue.fromS("USD")));
    // 30 days after 2026-03-10T12:00:05Z is 2026-04-09T12:00:05Z = 1775736005.
    assertThat(item.get("ExpiresAt").n()).isEqualTo("1775736005");
  }

  @Test
  void anEventOfNoChargeOfOursLeavesTheSubscriptionAndTransactionIndexesAlone() {
    StoredEvent foreign =
        new StoredEvent(
            "stripe",
            "evt_1",
            "customer.created",
            null,
            null,
            null,
            "",
            null,
            Instant.parse("2026-03-10T08:00:00Z"),
            RECEIVED,
            Map.of());

    assertThat(events.recordOnce(foreign)).isTrue();

    Map<String, AttributeValue> item =
        client
            .getItem(
                r -> r.tableName(table).key(Map.of("PK", AttributeValue.fromS("stripe#evt_1"))))
            .item();
    assertThat(item)
        .doesNotContainKeys(
            "PaymentEventType", "SubscriptionId", "Cycle", "IdempotencyKey", "TransactionId");
    assertThat(events.find("stripe", "evt_1")).contains(foreign);
    assertThat(events.eventsOn(LocalDate.of(2026, 3, 10), PageRequest.first(10)).items())
        .containsExactly(new EventRef("stripe", "evt_1", Instant.parse("2026-03-10T08:00:00Z")));
  }

  @Test
  void theSameEventIdOfTwoProvidersIsTwoEvents() {
    assertThat(events.recordOnce(event("sandbox", "evt_1", "sub-1", "2026-03-10T08:00:00Z")))
        .isTrue();
    assertThat(events.recordOnce(event("stripe", "evt_1", "sub-1", "2026-03-10T08:00:00Z")))
        .isTrue();

    assertThat(events.find("sandbox", "evt_1")).map(StoredEvent::provider).contains("sandbox");
    assertThat(events.find("stripe", "evt_1")).map(StoredEvent::provider).contains("stripe");
    assertThat(events.find("stripe", "evt_2")).isEmpty();
  }

  @Test
  void listsTheEventsOfOneUtcDateInTimeOrderPageByPage() {
    for (String at :
        List.of(
            "2026-03-10T23:59:59.999Z",
            "2026-03-09T23:59:59.999Z",
            "2026-03-10T08:00:00Z",
            "2026-03-11T00:00:00Z",
            "2026-03-10T00:00:00Z")) {
      events.recordOnce(event("sandbox", "evt_" + at, "sub-1", at));
    }

    Page<EventRef> first = events.eventsOn(LocalDate.of(2026, 3, 10), PageRequest.first(2));
    assertThat(first.items())
        .containsExactly(ref("2026-03-10T00:00:00Z"), ref("2026-03-10T08:00:00Z"));
    assertThat(first.nextPageToken()).isNotNull();

    Page<EventRef> second =
        events.eventsOn(LocalDate.of(2026, 3, 10), new PageRequest(first.nextPageToken(), 2));
    assertThat(second.items()).containsExactly(ref("2026-03-10T23:59:59.999Z"));
    assertThat(second.nextPageToken()).isNull();

    assertThat(events.eventsOn(LocalDate.of(2026, 3, 12), PageRequest.first(2)).items()).isEmpty();
  }

  @Test
  void listsTheEventsOfOneSubscriptionOldestFirst() {
    events.recordOnce(event("sandbox", "evt_c", "sub-1", "2026-03-12T00:00:00Z"));
    events.recordOnce(event("sandbox", "evt_a", "sub-1", "2026-03-10T00:00:00Z"));
    events.recordOnce(event("stripe", "evt_b", "sub-1", "2026-03-11T00:00:00Z"));
    events.recordOnce(event("sandbox", "evt_other", "sub-10", "2026-03-10T06:00:00Z"));

    Page<SubscriptionEvent> first = events.eventsOf("sub-1", PageRequest.first(2));
    assertThat(first.items())
        .containsExactly(
            new SubscriptionEvent(
                "sandbox", "evt_a", "charge.succeeded", Instant.parse("2026-03-10T00:00:00Z")),
            new SubscriptionEvent(
                "stripe", "evt_b", "charge.succeeded", Instant.parse("2026-03-11T00:00:00Z")));
    Page<SubscriptionEvent> second =
        events.eventsOf("sub-1", new PageRequest(first.nextPageToken(), 2));
    assertThat(second.items()).extracting(SubscriptionEvent::eventId).containsExactly("evt_c");
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  void aPageTokenContinuesOnlyTheQueryItWasIssuedFor() {
    events.recordOnce(event("sandbox", "evt_a", "sub-1", "2026-03-10T00:00:00Z"));
    events.recordOnce(event("sandbox", "evt_b", "sub-1", "2026-03-10T01:00:00Z"));
    String token = events.eventsOf("sub-1", PageRequest.first(1)).nextPageToken();

    assertThatThrownBy(() -> events.eventsOf("sub-2", new PageRequest(token, 1)))
        .isExactlyInstanceOf(InvalidPageTokenException.class);
    assertThatThrownBy(() -> events.eventsOn(LocalDate.of(2026, 3, 10), new PageRequest(token, 1)))
        .isExactlyInstanceOf(InvalidPageTokenException.class);
  }

  @Test
  void findsWhoseChargeATransactionIsFromItsNewestEventThatSaid() {
    events.recordOnce(
        new StoredEvent(
            "stripe",
            "evt_processing",
            "payment_intent.processing",
            null,
            "sub-7",
            2L,
            "charge:sub-7:2:1",
            "pi_7",
            Instant.parse("2026-03-10T00:00:00Z"),
            RECEIVED,
            Map.of()));
    // A dispute carries no metadata of ours: it must not hide the earlier owner.
    events.recordOnce(
        new StoredEvent(
            "stripe",
            "evt_dispute",
            "charge.dispute.created",
            null,
            null,
            null,
            null,
            "pi_7",
            Instant.parse("2026-03-14T00:00:00Z"),
            RECEIVED,
            Map.of()));

    assertThat(events.ownerOf("stripe", "pi_7"))
        .contains(new ChargeOwner("sub-7", 2L, "charge:sub-7:2:1"));
    assertThat(events.ownerOf("sandbox", "pi_7")).isEmpty();
    assertThat(events.ownerOf("stripe", "pi_8")).isEmpty();
  }

  @Test
  void refusesWhatMustNotBeStored() {
    assertThatThrownBy(
            () -> summaryOf(Map.of("failureMessage", "card 4242 4242 4242 4242 declined")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("summary value of failureMessage looks like a card number");
    assertThatThrownBy(() -> summaryOf(Map.of("pan", "4000000000000002")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(
            summaryOf(Map.of("amount", "999", "failureMessage", "call 1-800-555-0199")).summary())
        .containsEntry("failureMessage", "call 1-800-555-0199");
    assertThat(
            StoredEvent.redactCardNumbers(
                "card 4242 4242 4242 4242 and 4000-0000-0000-0002 declined"))
        .isEqualTo("card [redacted] and [redacted] declined");
    assertThat(StoredEvent.redactCardNumbers("call 1-800-555-0199"))
        .isEqualTo("call 1-800-555-0199");
    assertThatThrownBy(
            () ->
                new StoredEvent(
                    "Stripe#x",
                    "evt_1",
                    "t",
                    null,
                    null,
                    null,
                    null,
                    null,
                    RECEIVED,
                    RECEIVED,
                    Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new StoredEvent(
                    "stripe", "", "t", null, null, null, null, null, RECEIVED, RECEIVED, Map.of()))
        .hasMessage("eventId is required");
    assertThatThrownBy(() -> new PaymentEventStore(client, table, new byte[31]))
        .hasMessage("pageTokenKey must be at least 32 bytes, got 31");
  }

  private static StoredEvent summaryOf(Map<String, String> summary) {
    return new StoredEvent(
        "stripe",
        "evt_1",
        "payment_intent.payment_failed",
        null,
        null,
        null,
        null,
        null,
        RECEIVED,
        RECEIVED,
        summary);
  }

  private static EventRef ref(String at) {
    return new EventRef("sandbox", "evt_" + at, Instant.parse(at));
  }

  private static StoredEvent succeeded(String eventId, String subscriptionId, String at) {
    return new StoredEvent(
        "sandbox",
        eventId,
        "charge.succeeded",
        PaymentEvent.Type.CHARGE_SUCCEEDED,
        subscriptionId,
        3L,
        "charge:" + subscriptionId + ":3:1",
        "ch_sb_0a1b",
        Instant.parse(at),
        RECEIVED,
        Map.of("amount", "9.99", "currency", "USD"));
  }

  private static StoredEvent event(
      String provider, String eventId, String subscriptionId, String at) {
    return new StoredEvent(
        provider,
        eventId,
        "charge.succeeded",
        PaymentEvent.Type.CHARGE_SUCCEEDED,
        subscriptionId,
        1L,
        null,
        null,
        Instant.parse(at),
        RECEIVED,
        Map.of());
  }
}
