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
import java.util.function.Consumer;
import java.util.function.Predicate;
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
    PaymentEventIntake intake = new PaymentEventIntake(events, signals(signalled::add, e -> false));

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
        new PaymentEventIntake(events, signals(PaymentEventIntakeTest::noRun, e -> true));
    assertThat(noWorkflow.accept(stored("evt_3"), signal("evt_3")).outcome())
        .isEqualTo(Outcome.NO_WORKFLOW);

    PaymentEventIntake down =
        new PaymentEventIntake(
            events,
            signals(
                event -> {
                  throw new IllegalStateException("UNAVAILABLE: io exception");
                },
                e -> false));
    assertThatThrownBy(() -> down.accept(stored("evt_4"), signal("evt_4")))
        .isInstanceOf(PaymentEventIntake.SignalFailedException.class)
        .hasMessage(
            "event evt_4 stored but not signalled to subscription sub-1:"
                + " java.lang.IllegalStateException: UNAVAILABLE: io exception");
    assertThat(events.find("sandbox", "evt_3")).isPresent();
    assertThat(events.find("sandbox", "evt_4")).isPresent();
  }

  @Test
  void aReturnForAnEndedSubscriptionStartsItsRunAgainAndNothingElseDoes() {
    List<PaymentEvent> started = new ArrayList<>();
    PaymentEventIntake intake =
        new PaymentEventIntake(
            events,
            signals(
                PaymentEventIntakeTest::noRun,
                event -> {
                  started.add(event);
                  return event.subscriptionId().equals("sub-1");
                }));

    assertThat(intake.accept(stored("evt_5"), returned("evt_5", "sub-1")).outcome())
        .isEqualTo(Outcome.RESTARTED);
    assertThat(intake.accept(stored("evt_6"), returned("evt_6", "sub-never")).outcome())
        .as("no ended subscription to start")
        .isEqualTo(Outcome.NO_WORKFLOW);
    assertThat(intake.accept(stored("evt_7"), signal("evt_7")).outcome())
        .as("a success moves no money back")
        .isEqualTo(Outcome.NO_WORKFLOW);
    assertThat(started).extracting(PaymentEvent::eventId).containsExactly("evt_5", "evt_6");
  }

  @Test
  void aRefundOrADisputeForAnEndedSubscriptionStartsItsRunAgainToo() {
    List<PaymentEvent> started = new ArrayList<>();
    PaymentEventIntake intake =
        new PaymentEventIntake(
            events,
            signals(
                PaymentEventIntakeTest::noRun,
                event -> {
                  started.add(event);
                  // As the record answers: the second delivery finds the refund recorded.
                  return started.size() == 1 || event.type() != PaymentEvent.Type.CHARGE_REFUNDED;
                }));

    assertThat(intake.accept(stored("evt_r1"), moved("evt_r1", PaymentEvent.Type.CHARGE_REFUNDED)))
        .isEqualTo(new PaymentEventIntake.Result(Outcome.RESTARTED, false));
    assertThat(intake.accept(stored("evt_r1"), moved("evt_r1", PaymentEvent.Type.CHARGE_REFUNDED)))
        .as("delivered again once recorded: nothing to start")
        .isEqualTo(new PaymentEventIntake.Result(Outcome.NO_WORKFLOW, true));
    assertThat(
            intake
                .accept(stored("evt_d1"), moved("evt_d1", PaymentEvent.Type.CHARGE_DISPUTED))
                .outcome())
        .isEqualTo(Outcome.RESTARTED);
    assertThat(
            intake
                .accept(stored("evt_w1"), moved("evt_w1", PaymentEvent.Type.DISPUTE_WON))
                .outcome())
        .isEqualTo(Outcome.RESTARTED);
    assertThat(started)
        .extracting(PaymentEvent::eventId)
        .containsExactly("evt_r1", "evt_r1", "evt_d1", "evt_w1");
  }

  @Test
  void aRefundWhoseRunCannotBeStartedIsStoredAndAskedForAgain() {
    PaymentEventIntake intake =
        new PaymentEventIntake(
            events,
            signals(
                PaymentEventIntakeTest::noRun,
                event -> {
                  throw new IllegalStateException("UNAVAILABLE: io exception");
                }));
    assertThatThrownBy(
            () ->
                intake.accept(stored("evt_r9"), moved("evt_r9", PaymentEvent.Type.CHARGE_REFUNDED)))
        .isInstanceOf(PaymentEventIntake.SignalFailedException.class);
    assertThat(events.find("sandbox", "evt_r9")).isPresent();
  }

  private static PaymentEvent moved(String id, PaymentEvent.Type type) {
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        "sub-1",
        1,
        "charge:sub-1:1:1",
        "ch_1",
        null,
        null,
        AT,
        dev.billing.domain.Money.parse("3.00", "USD"),
        List.of(
            new dev.billing.domain.ChargeRefund(
                "re_1", dev.billing.domain.Money.parse("3.00", "USD"), null, AT)));
  }

  @Test
  void aReturnWhoseRunCannotBeStartedIsStoredAndAskedForAgain() {
    PaymentEventIntake intake =
        new PaymentEventIntake(
            events,
            signals(
                PaymentEventIntakeTest::noRun,
                event -> {
                  throw new IllegalStateException("UNAVAILABLE: io exception");
                }));
    assertThatThrownBy(() -> intake.accept(stored("evt_8"), returned("evt_8", "sub-1")))
        .isInstanceOf(PaymentEventIntake.SignalFailedException.class);
    assertThat(events.find("sandbox", "evt_8")).isPresent();
  }

  private static void noRun(PaymentEvent event) {
    throw new WorkflowNotFoundException(
        WorkflowExecution.newBuilder()
            .setWorkflowId("subscription-" + event.subscriptionId())
            .build(),
        "Subscription",
        null);
  }

  private static PaymentEventIntake.Signals signals(
      Consumer<PaymentEvent> send, Predicate<PaymentEvent> startEnded) {
    return new PaymentEventIntake.Signals() {
      @Override
      public void send(PaymentEvent event) {
        send.accept(event);
      }

      @Override
      public boolean startEnded(PaymentEvent event) {
        return startEnded.test(event);
      }
    };
  }

  private static PaymentEvent returned(String id, String subscriptionId) {
    return new PaymentEvent(
        id,
        "sandbox",
        PaymentEvent.Type.CHARGE_RETURNED,
        subscriptionId,
        1,
        "charge:" + subscriptionId + ":1:1",
        "ch_1",
        "insufficient_funds",
        null,
        AT);
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
