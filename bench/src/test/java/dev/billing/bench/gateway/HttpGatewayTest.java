package dev.billing.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.PaymentGateway;
import dev.billing.activities.payments.PaymentGatewayException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.domain.Money;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each operation and each of the port's exceptions, through a real HTTP round trip. */
class HttpGatewayTest {
  private static final Instant AT = Instant.parse("2026-03-02T00:00:01Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final GatewayChargeRequest REQUEST =
      new GatewayChargeRequest(
          "charge:sub_1:1:1",
          PRICE,
          "pm_card_visa",
          "Plus, March",
          Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub_1", GatewayChargeRequest.CYCLE, "1"));
  private static final GatewayChargeState STATE =
      new GatewayChargeState(
          GatewayChargeState.Status.SUCCEEDED,
          "charge:sub_1:1:1",
          "txn_1",
          PRICE,
          new Money(300, "USD"),
          "sub_1",
          1L,
          AT,
          AT,
          null,
          null,
          null);

  private final Scripted gateway = new Scripted();
  private final GatewayHttpServer server = startServer(gateway);
  private final HttpGateway client = new HttpGateway(server.url());

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aChargeTravelsBothWaysUnchanged() {
    GatewayCharge charged = new GatewayCharge("txn_1", AT, true, true);
    gateway.answer = () -> charged;

    assertThat(client.charge(REQUEST)).isEqualTo(charged);
    assertThat(gateway.received).containsExactly(REQUEST);
    assertThat(server.chargeCalls()).isEqualTo(1);
  }

  @Test
  void aRefundTravelsBothWaysUnchanged() {
    RefundRequest refund =
        new RefundRequest(
            "refund:sub_1:1",
            "txn_1",
            new Money(300, "USD"),
            RefundRequest.Reason.REQUESTED_BY_CUSTOMER);
    GatewayRefund refunded = new GatewayRefund("re_1", new Money(300, "USD"), AT);
    gateway.answer = () -> refunded;

    assertThat(client.refund(refund)).isEqualTo(refunded);
    assertThat(gateway.received).containsExactly(refund);
  }

  @Test
  void aLookUpTravelsBothWaysUnchangedFoundOrNot() {
    ChargeQuery query = new ChargeQuery("charge:sub_1:1:1", "pm_card_visa", AT);
    gateway.answer = () -> STATE;
    assertThat(client.lookUp(query)).isEqualTo(STATE);

    gateway.answer = () -> GatewayChargeState.notFound("charge:sub_1:1:1");
    assertThat(client.lookUp(query)).isEqualTo(GatewayChargeState.notFound("charge:sub_1:1:1"));
    assertThat(gateway.received).containsExactly(query, query);
  }

  @Test
  void listsTravelWithTheirWindow() {
    GatewayChargeState failed =
        new GatewayChargeState(
            GatewayChargeState.Status.FAILED,
            "charge:sub_2:1:1",
            "txn_2",
            PRICE,
            new Money(0, "USD"),
            "sub_2",
            1L,
            AT,
            null,
            null,
            "card_declined",
            "Declined.");
    GatewayEvent event =
        new GatewayEvent(
            "evt_1",
            GatewayEvent.Type.REFUNDED,
            AT,
            "charge:sub_1:1:1",
            "txn_1",
            "sub_1",
            1,
            new Money(300, "USD"),
            null,
            null);
    Instant to = AT.plus(Duration.ofDays(1));

    gateway.answer = () -> List.of(STATE, failed);
    assertThat(client.listCharges(AT, to)).containsExactly(STATE, failed);
    gateway.answer = () -> List.of(event);
    assertThat(client.listEvents(AT, to)).containsExactly(event);
    assertThat(gateway.received)
        .containsExactly(List.of("charges", AT, to), List.of("events", AT, to));
  }

  @Test
  void aDeclineKeepsItsCodeAndKind() {
    gateway.answer =
        () -> {
          throw new PaymentDeclinedException(
              "insufficient_funds", "Your card has insufficient funds.", DeclineKind.SOFT);
        };
    PaymentDeclinedException soft = thrown(PaymentDeclinedException.class);
    assertThat(soft.code()).isEqualTo("insufficient_funds");
    assertThat(soft.kind()).isEqualTo(DeclineKind.SOFT);
    assertThat(soft).hasMessage("Your card has insufficient funds.");

    gateway.answer =
        () -> {
          throw new PaymentDeclinedException(
              "expired_card", "Your card has expired.", DeclineKind.HARD);
        };
    assertThat(thrown(PaymentDeclinedException.class).hard()).isTrue();
  }

  @Test
  void anIdempotencyConflictStaysAConflictNotADecline() {
    gateway.answer =
        () -> {
          throw new IdempotencyConflictException(
              "Keys for idempotent requests can only be used with the same"
                  + " parameters they were first used with (amount)",
              null);
        };
    assertThat(thrown(IdempotencyConflictException.class)).hasMessageContaining("(amount)");
  }

  @Test
  void anInvalidRequestKeepsItsCode() {
    gateway.answer =
        () -> {
          throw new InvalidGatewayRequestException(
              InvalidGatewayRequestException.RESOURCE_MISSING, "No such charge: txn_9");
        };
    InvalidGatewayRequestException invalid = thrown(InvalidGatewayRequestException.class);
    assertThat(invalid.code()).isEqualTo(InvalidGatewayRequestException.RESOURCE_MISSING);
    assertThat(invalid).hasMessage("No such charge: txn_9");
  }

  @Test
  void unavailableAndRateLimitedStayUnavailableWithTheirMessage() {
    gateway.answer =
        () -> {
          throw new GatewayUnavailableException(
              "Rate limited: more than 25 requests per second (simulated 429)", null);
        };
    assertThat(thrown(GatewayUnavailableException.class)).hasMessageContaining("simulated 429");
  }

  @Test
  void aGatewayBugOrNoAnswerIsAnUnknownOutcome() throws IOException {
    gateway.answer =
        () -> {
          throw new IllegalStateException("bug");
        };
    assertThat(thrown(GatewayUnavailableException.class)).hasMessageContaining("HTTP 500");

    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    HttpGateway nobody = new HttpGateway("http://127.0.0.1:" + closedPort);
    assertThat(
            catchThrowableOfType(() -> nobody.charge(REQUEST), GatewayUnavailableException.class))
        .hasMessageContaining("no answer from the gateway");
  }

  private <T extends PaymentGatewayException> T thrown(Class<T> type) {
    T e = catchThrowableOfType(() -> client.charge(REQUEST), type);
    assertThat(e).as("thrown " + type.getSimpleName()).isNotNull();
    return e;
  }

  private static GatewayHttpServer startServer(PaymentGateway gateway) {
    try {
      return GatewayHttpServer.start(gateway, Duration.ZERO);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Records what reached it and answers (or throws) what the test set. */
  private static final class Scripted implements PaymentGateway {
    final List<Object> received = new ArrayList<>();
    volatile Supplier<Object> answer;

    @SuppressWarnings("unchecked")
    private <T> T answer(Object request) {
      synchronized (received) {
        received.add(request);
      }
      return (T) answer.get();
    }

    @Override
    public GatewayCharge charge(GatewayChargeRequest request) {
      return answer(request);
    }

    @Override
    public GatewayRefund refund(RefundRequest request) {
      return answer(request);
    }

    @Override
    public GatewayChargeState lookUp(ChargeQuery query) {
      return answer(query);
    }

    @Override
    public List<GatewayChargeState> listCharges(Instant from, Instant to) {
      return answer(List.of("charges", from, to));
    }

    @Override
    public List<GatewayEvent> listEvents(Instant from, Instant to) {
      return answer(List.of("events", from, to));
    }
  }
}
