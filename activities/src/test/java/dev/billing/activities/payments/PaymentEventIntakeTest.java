package dev.billing.activities.payments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.payments.PaymentEventIntake.Outcome;
import dev.billing.domain.PaymentEvent;
import dev.billing.store.BillingTables;
import dev.billing.store.events.PaymentEventStore;
import dev.billing.store.events.StoredEvent;
import dev.billing.store.testing.LocalDynamoDb;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The one path of a genuine gateway event, shared by the webhook and the missed-webhook replay. */
class PaymentEventIntakeTest {
  private static final Instant AT = Instant.parse("2026-03-10T12:00:05.123Z");

  private static LocalDynamoDb local;
  private static DynamoDbClient client;
  private final String table = "payment-events_" + UUID.randomUUID();
  private PaymentEventStore events;
  private final List<PaymentEvent> signalled = new ArrayList<>();

  @BeforeAll
  static void startDynamo() {
    local = LocalDynamoDb.start();
    client = local.client();
  }

  @AfterAll
  static void stopDynamo() {
    local.close();
  }

  @BeforeEach
  void createTable() {
    client.createTable(BillingTables.schema(BillingTables.PAYMENT_EVENTS_SCHEMA, table));
    events = new PaymentEventStore(client, table, LocalDynamoDb.PAGE_TOKEN_KEY);
  }

  @AfterEach
  void dropTable() {
    client.deleteTable(r -> r.tableName(table));
  }

  @Test
  void storesOnceAndSignalsEveryDelivery() {
    PaymentEventIntake intake = new PaymentEventIntake(events, signalled::add);

    assertThat(intake.accept(stored("evt_1"), signal("evt_1")))
        .isEqualTo(new PaymentEventIntake.Result(Outcome.SIGNALLED, false));
    assertThat(intake.accept(stored("evt_1"), signal("evt_1")))
        .isEqualTo(new PaymentEventIntake.Result(Outcome.SIGNALLED, true));
    assertThat(signalled).extracting(PaymentEvent::eventId).containsExactly("evt_1", "evt_1");
    assertThat(intake.accept(stored("evt_2"), null))
        .isEqualTo(new PaymentEventIntake.Result(Outcome.STORED_ONLY, false));
    assertThat(events.find("sandbox", "evt_2")).isPresent();
  }

  @Test
  void aSubscriptionWithoutWorkflowAndAFailedSignalAreToldApartAndTheEventIsStoredEitherWay() {
    PaymentEventIntake noWorkflow =
        new PaymentEventIntake(
            events,
            event -> {
              throw new WorkflowNotFoundException(
                  WorkflowExecution.newBuilder().setWorkflowId("subscription-sub-1").build(),
                  "Subscription",
                  null);
            });
    assertThat(noWorkflow.accept(stored("evt_3"), signal("evt_3")).outcome())
        .isEqualTo(Outcome.NO_WORKFLOW);

    PaymentEventIntake down =
        new PaymentEventIntake(
            events,
            event -> {
              throw new IllegalStateException("UNAVAILABLE: io exception");
            });
    assertThatThrownBy(() -> down.accept(stored("evt_4"), signal("evt_4")))
        .isInstanceOf(PaymentEventIntake.SignalFailedException.class)
        .hasMessage(
            "event evt_4 stored but not signalled to subscription sub-1:"
                + " java.lang.IllegalStateException: UNAVAILABLE: io exception");
    assertThat(events.find("sandbox", "evt_3")).isPresent();
    assertThat(events.find("sandbox", "evt_4")).isPresent();
  }

  private static StoredEvent stored(String id) {
    return new StoredEvent(
        "sandbox",
        id,
        "charge.succeeded",
        PaymentEvent.Type.CHARGE_SUCCEEDED,
        "sub-1",
        1L,
        "charge:sub-1:1:1",
        "ch_1",
        AT,
        AT.plusSeconds(2),
        Map.of("amount", "9.99"));
  }

  private static PaymentEvent signal(String id) {
    return new PaymentEvent(
        id,
        "sandbox",
        PaymentEvent.Type.CHARGE_SUCCEEDED,
        "sub-1",
        1,
        "charge:sub-1:1:1",
        "ch_1",
        null,
        null,
        AT);
  }
}
