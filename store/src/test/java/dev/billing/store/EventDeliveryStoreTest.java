package dev.billing.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What delivery reads and writes: the owed index, the finished set, the attempts. */
class EventDeliveryStoreTest extends StoreTestBase {
  private static final LocalDate DAY = LocalDate.of(2026, 1, 10);
  private static final Instant LATER = Instant.parse("2026-01-10T10:00:00Z");
  private static final Instant SINCE = Instant.parse("2000-01-01T00:00:00Z");

  private String sub;
  private Subscription v1;
  private EventDeliveryStore deliveries;
  private String eventId;

  @BeforeEach
  void names() {
    sub = id("s_1");
    v1 = Fixtures.subscription(id("acc"), sub);
    deliveries = new EventDeliveryStore(store, Fixtures.KEY);
    store.createSubscription(Fixtures.created(v1));
    eventId = "evt_" + sub + "_1_0";
  }

  private List<UndeliveredEvent> owed(Instant before) {
    List<UndeliveredEvent> all = new ArrayList<>();
    for (int shard = 0; shard < deliveries.shards(); shard++) {
      all.addAll(deliveries.undelivered(DAY, shard, before, 100));
    }
    return all.stream().filter(e -> e.subscriptionId().equals(sub)).toList();
  }

  private DeliveryAttempt attempt(
      String endpoint, int n, DeliveryAttempt.Status status, Instant at) {
    return new DeliveryAttempt(
        endpoint,
        eventId,
        "subscription.created",
        sub,
        n,
        status,
        status == DeliveryAttempt.Status.SUCCEEDED ? 200 : 503,
        status == DeliveryAttempt.Status.SUCCEEDED ? null : "http_503",
        at);
  }

  @Test
  void aNewEventIsListedAsOwedUnderItsDayAndShardOnceItsTimeHasPassed() {
    assertThat(owed(LATER)).containsExactly(new UndeliveredEvent(sub, eventId));
    assertThat(owed(Fixtures.CREATED)).as("written at or after 'before'").isEmpty();
    assertThat(deliveries.event(eventId).orElseThrow().owed()).isTrue();
  }

  @Test
  void anEventLeavesTheIndexWhenItsLastOwedEndpointFinishes() {
    deliveries.record(attempt("ep1", 1, DeliveryAttempt.Status.FAILED_ATTEMPT, LATER), false);
    assertThat(deliveries.event(eventId).orElseThrow().finishedFor()).isEmpty();

    deliveries.record(
        attempt("ep1", 2, DeliveryAttempt.Status.SUCCEEDED, LATER.plusSeconds(10)), false);
    EventDeliveryState half = deliveries.event(eventId).orElseThrow();
    assertThat(half.finishedFor()).containsExactly("ep1");
    assertThat(half.owed()).isTrue();
    assertThat(owed(LATER)).hasSize(1);

    deliveries.record(
        attempt("ep2", 7, DeliveryAttempt.Status.FAILED, LATER.plusSeconds(20)), true);
    EventDeliveryState done = deliveries.event(eventId).orElseThrow();
    assertThat(done.finishedFor()).containsExactlyInAnyOrder("ep1", "ep2");
    assertThat(done.owed()).isFalse();
    assertThat(owed(LATER.plusSeconds(60))).isEmpty();
  }

  @Test
  void theEventsOwedBeforeOneAreTheEarlierOnesStillOwedOldestFirst() {
    RecordInput paid = Fixtures.paid(v1, 1, "txn-1", LATER);
    store.updateSubscription(paid);
    List<String> paidIds = MerchantEventStore.idsOf(paid);
    assertThat(paidIds).isNotEmpty();
    String last = paidIds.get(paidIds.size() - 1);

    List<String> earlier = new ArrayList<>(List.of(eventId));
    earlier.addAll(paidIds.subList(0, paidIds.size() - 1));
    assertThat(deliveries.owedBefore(last, SINCE))
        .extracting(e -> e.event().id())
        .as("the creation, then the payment's earlier ones; never the event itself")
        .containsExactlyElementsOf(earlier);
    assertThat(deliveries.owedBefore(eventId, SINCE)).as("nothing before the first").isEmpty();
    assertThat(deliveries.owedBefore("not-an-event", SINCE)).isEmpty();
    assertThat(deliveries.owedBefore(last, LATER))
        .extracting(e -> e.event().id())
        .as("not back before the look-back: the creation is older")
        .containsExactlyElementsOf(paidIds.subList(0, paidIds.size() - 1));

    deliveries.record(attempt("ep1", 1, DeliveryAttempt.Status.SUCCEEDED, LATER), false);
    assertThat(deliveries.owedBefore(last, SINCE).get(0).finishedFor())
        .as("still owed to others: listed with whom it is finished for")
        .containsExactly("ep1");
    deliveries.settle(eventId);
    assertThat(deliveries.owedBefore(last, SINCE))
        .extracting(e -> e.event().id())
        .doesNotContain(eventId);
  }

  @Test
  void theEventsOwedBeforeOneAreReadPageByPageNewestFirstAndReturnedOldestFirst() {
    Subscription current = v1;
    List<String> ids = new ArrayList<>(List.of(eventId));
    for (int n = 1; n <= 30; n++) {
      RecordInput paid = Fixtures.paid(current, 1, "txn-" + n, LATER.plusSeconds(n));
      store.updateSubscription(paid);
      ids.addAll(MerchantEventStore.idsOf(paid));
      current = paid.next();
    }
    String last = ids.get(ids.size() - 1);

    assertThat(deliveries.owedBefore(last, SINCE))
        .extracting(e -> e.event().id())
        .as("more than a page of earlier events, every one, in order")
        .containsExactlyElementsOf(ids.subList(0, ids.size() - 1));
  }

  @Test
  void settlingAnEventNoEndpointWantsTakesItOffTheIndexAndAnUnknownIdIsNoError() {
    deliveries.settle(eventId);
    deliveries.settle("evt_" + sub + "_9_0");
    assertThat(deliveries.event(eventId).orElseThrow().owed()).isFalse();
    assertThat(deliveries.event("evt_" + sub + "_9_0")).isEmpty();
    assertThat(owed(LATER)).isEmpty();
  }

  @Test
  void attemptsAreListedNewestFirstPageByPageAndARetriedWriteIsOneAttempt() {
    String endpoint = id("ep");
    for (int n = 1; n <= 3; n++) {
      deliveries.record(
          attempt(endpoint, n, DeliveryAttempt.Status.FAILED_ATTEMPT, LATER.plusSeconds(n)), false);
    }
    deliveries.record(
        attempt(endpoint, 3, DeliveryAttempt.Status.FAILED_ATTEMPT, LATER.plusSeconds(3)), false);

    Page<DeliveryAttempt> first = deliveries.attempts(endpoint, PageRequest.first(2));
    assertThat(first.items()).extracting(DeliveryAttempt::attempt).containsExactly(3, 2);
    assertThat(first.items().get(0))
        .isEqualTo(
            attempt(endpoint, 3, DeliveryAttempt.Status.FAILED_ATTEMPT, LATER.plusSeconds(3)));
    Page<DeliveryAttempt> second =
        deliveries.attempts(endpoint, new PageRequest(first.nextPageToken(), 2));
    assertThat(second.items()).extracting(DeliveryAttempt::attempt).containsExactly(1);
    assertThat(second.nextPageToken()).isNull();
    assertThat(deliveries.attempts(id("other"), PageRequest.first(10)).items()).isEmpty();
  }

  @Test
  void theIdsOfAChangesEventsAreTheIdsItWrites() {
    assertThat(MerchantEventStore.idsOf(Fixtures.created(v1))).containsExactly(eventId);
  }
}
