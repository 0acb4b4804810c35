package dev.billing.workflows.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.workflows.delivery.DeliveryInput.Lane;
import dev.billing.workflows.delivery.DeliveryInput.QueuedEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryLanesTest {
  private static final java.time.Instant AT = java.time.Instant.parse("2027-03-01T00:00:00Z");

  private static QueuedEvent e(String version, String n) {
    return new QueuedEvent("evt_s_1_" + version + "_" + n, "subscription.created", AT, false);
  }

  private static String id(String version, String n) {
    return "evt_s_1_" + version + "_" + n;
  }

  @Test
  void eventsAreQueuedInVersionOrderNotStringOrder() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("10", "0"), List.of("a"));
    lanes.add(e("9", "1"), List.of("a"));
    lanes.add(e("9", "0"), List.of("a"));
    assertThat(lanes.snapshot().get(0).events())
        .extracting(QueuedEvent::eventId)
        .containsExactly(id("9", "0"), id("9", "1"), id("10", "0"));
  }

  @Test
  void oneDeliveryInFlightPerEndpointAndAFailingEndpointHoldsUpOnlyItself() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("1", "0"), List.of("a", "b"));
    lanes.add(e("2", "0"), List.of("a", "b"));
    List<DeliveryLanes.Start> first = lanes.startable();
    assertThat(first).extracting(DeliveryLanes.Start::endpointId).containsExactly("a", "b");
    assertThat(lanes.startable()).as("both lanes busy").isEmpty();

    lanes.finished("b");
    assertThat(lanes.startable())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.endpointId()).isEqualTo("b");
              assertThat(s.event().eventId()).isEqualTo(id("2", "0"));
            });
  }

  @Test
  void theLastEndpointOwedAnEventKnowsItWhenItStartsOtherwiseTheEndSettlesIt() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("1", "0"), List.of("a", "b"));
    List<DeliveryLanes.Start> starts = lanes.startable();
    assertThat(starts).allSatisfy(s -> assertThat(s.lastOwed()).isFalse());
    assertThat(lanes.finished("a")).isNull();
    assertThat(lanes.finished("b")).as("nobody started as the last").isEqualTo(id("1", "0"));
    assertThat(lanes.isEmpty()).isTrue();

    lanes.add(e("2", "0"), List.of("a", "b"));
    lanes.startable();
    lanes.finished("a");
    lanes.finished("b");
    lanes.add(e("3", "0"), List.of("a"));
    assertThat(lanes.startable()).singleElement().satisfies(s -> assertThat(s.lastOwed()).isTrue());
    assertThat(lanes.finished("a")).as("its own write settled it").isNull();
  }

  @Test
  void aDuplicateIsNotQueuedTwiceEvenInFlightButARedeliveryIs() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("1", "0"), List.of("a"));
    lanes.startable();
    lanes.add(e("1", "0"), List.of("a"));
    assertThat(lanes.holds(id("1", "0"))).isTrue();
    QueuedEvent again = new QueuedEvent(id("1", "0"), "subscription.created", AT, true);
    lanes.add(again, List.of("a"));
    lanes.add(again, List.of("a"));
    lanes.finished("a");
    assertThat(lanes.holds(id("1", "0"))).as("a redelivery is owed to nobody").isFalse();
    assertThat(lanes.snapshot().get(0).events()).containsExactly(again);
    assertThat(lanes.startable())
        .singleElement()
        .satisfies(s -> assertThat(s.lastOwed()).as("never settles").isFalse());
    assertThat(lanes.finished("a")).isNull();
  }

  @Test
  void anEventArrivingLateIsQueuedAfterTheHeadInFlight() {
    DeliveryLanes lanes = new DeliveryLanes(List.of(new Lane("a", List.of(e("5", "0")))));
    lanes.startable();
    lanes.add(e("4", "0"), List.of("a"));
    lanes.finished("a");
    assertThat(lanes.snapshot().get(0).events()).containsExactly(e("4", "0"));
  }

  @Test
  void aDroppedEndpointSettlesWhatOnlyItWasOwed() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("1", "0"), List.of("a", "b"));
    lanes.add(e("2", "0"), List.of("a"));
    lanes.startable();
    assertThat(lanes.dropped("a")).containsExactly(id("2", "0"));
    assertThat(lanes.holds(id("1", "0"))).isTrue();
  }

  @Test
  void noSnapshotWhileADeliveryIsInFlight() {
    DeliveryLanes lanes = new DeliveryLanes(List.of());
    lanes.add(e("1", "0"), List.of("a"));
    lanes.startable();
    assertThatThrownBy(lanes::snapshot).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void eventIdsOfTheSubscriptionOnly() {
    assertThat(EventOrder.isEventOf("s_1", "evt_s_1_12_3")).isTrue();
    assertThat(EventOrder.isEventOf("s_1", "evt_s_2_12_3")).isFalse();
    assertThat(EventOrder.isEventOf("s_1", "evt_s_1_012_3")).isFalse();
    assertThat(EventOrder.isEventOf("s_1", "evt_s_1_12")).isFalse();
    assertThat(EventOrder.isEventOf("s", "evt_s_1_12_3")).as("read from the right").isFalse();
  }
}
