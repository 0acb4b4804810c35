package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayEvent.Type;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.RefundRequest.Reason;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxRefundsTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final Instant T1 = Instant.parse("2026-02-02T05:00:00.123Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String KEY = "charge:sub-1:1:1";
  private static final String TXN = "ch_sb_335631d4fe51e776484e0fe6";
  // printf 'refund:sub-1:1:N' | sha256sum | cut -c1-24
  private static final String REFUND_KEY1 = "refund:sub-1:1:1";
  private static final String REFUND_ID1 = "re_sb_8857efd3192cf21a0b33fc89";
  private static final String REFUND_KEY2 = "refund:sub-1:1:2";
  private static final String REFUND_ID2 = "re_sb_2094e6bb30b3ca8860600ece";

  private final MutableClock clock = new MutableClock(T0);
  private final SandboxGateway gateway = new SandboxGateway(clock);

  @Test
  void refundsAChargeOnceByKey() {
    charge(SandboxPaymentMethods.VISA);
    clock.advance(Duration.ofDays(1));

    GatewayRefund refund = gateway.refund(refund(REFUND_KEY1, PRICE));
    clock.advance(Duration.ofMinutes(5));
    GatewayRefund replay = gateway.refund(refund(REFUND_KEY1, PRICE));

    assertThat(refund).isEqualTo(new GatewayRefund(REFUND_ID1, PRICE, T1));
    assertThat(replay).isEqualTo(refund);
    assertThat(gateway.refunds())
        .containsExactly(
            new SandboxRefund(
                REFUND_KEY1, REFUND_ID1, TXN, PRICE, Reason.REQUESTED_BY_CUSTOMER, T1));
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH)).refunded())
        .isEqualTo(PRICE);
  }

  @Test
  void partialRefundsAreBoundedByWhatIsLeft() {
    charge(SandboxPaymentMethods.VISA);

    gateway.refund(refund(REFUND_KEY1, new Money(500, "USD")));
    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY2, new Money(500, "USD"))))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("amount_too_large");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Refund amount (5.00 USD) is greater than"
                          + " unrefunded amount on charge (4.99 USD)");
            });
    GatewayRefund rest = gateway.refund(refund(REFUND_KEY2, new Money(499, "USD")));
    assertThatThrownBy(() -> gateway.refund(refund("refund:sub-1:1:3", new Money(1, "USD"))))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("charge_already_refunded"));

    assertThat(rest).isEqualTo(new GatewayRefund(REFUND_ID2, new Money(499, "USD"), T0));
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH)).refunded())
        .isEqualTo(PRICE);
  }

  @Test
  void refundEventsCarryTheTotalRefundedSoFar() {
    charge(SandboxPaymentMethods.VISA);
    clock.advance(Duration.ofDays(1));
    gateway.refund(refund(REFUND_KEY1, new Money(300, "USD")));
    clock.advance(Duration.ofDays(1));
    gateway.refund(refund(REFUND_KEY2, new Money(200, "USD")));

    ChargeRefund first =
        new ChargeRefund(
            gateway.refunds().get(0).refundId(), new Money(300, "USD"), REFUND_KEY1, T1);
    ChargeRefund second =
        new ChargeRefund(
            gateway.refunds().get(1).refundId(),
            new Money(200, "USD"),
            REFUND_KEY2,
            T1.plus(Duration.ofDays(1)));
    assertThat(gateway.listEvents(T1, T1.plus(Duration.ofDays(2))))
        .containsExactly(
            new GatewayEvent(
                "evt_sb_c10b566b8279163fa50ef4e0",
                Type.REFUNDED,
                T1,
                KEY,
                TXN,
                "sub-1",
                1,
                new Money(300, "USD"),
                null,
                null,
                List.of(first)),
            new GatewayEvent(
                "evt_sb_2eec83a342605eb8f36da249",
                Type.REFUNDED,
                T1.plus(Duration.ofDays(1)),
                KEY,
                TXN,
                "sub-1",
                1,
                new Money(500, "USD"),
                null,
                null,
                List.of(first, second)));
  }

  @Test
  void aDashboardRefundIsListedWithoutAKeyOfBillingsAndCountsAgainstWhatIsLeft() {
    charge(SandboxPaymentMethods.VISA);
    clock.advance(Duration.ofDays(1));
    gateway.refund(refund(REFUND_KEY1, new Money(300, "USD")));
    clock.advance(Duration.ofDays(1));

    GatewayRefund dashboard = gateway.refundAtDashboard(TXN, null);

    assertThat(dashboard.amount()).as("everything left").isEqualTo(new Money(699, "USD"));
    GatewayEvent event = gateway.listEvents(T1, T1.plus(Duration.ofDays(2))).get(1);
    assertThat(event.amount()).isEqualTo(PRICE);
    assertThat(event.refunds())
        .extracting(ChargeRefund::idempotencyKey)
        .containsExactly(REFUND_KEY1, null);
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, java.time.Instant.EPOCH)).refunds())
        .isEqualTo(event.refunds());
    assertThatThrownBy(() -> gateway.refundAtDashboard(TXN, new Money(1, "USD")))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("charge_already_refunded"));
    assertThatThrownBy(() -> gateway.refundAtDashboard("ch_sb_unknown", null))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("resource_missing"));
  }

  @Test
  void aDisputedChargeIsDisputedFiveDaysLaterLostTenDaysAfterThatAndCannotBeRefunded() {
    charge(SandboxPaymentMethods.DISPUTED);
    Instant charged = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    clock.advance(Duration.ofDays(16));

    assertThat(gateway.listEvents(charged, charged.plus(Duration.ofDays(16))))
        .extracting(GatewayEvent::type, GatewayEvent::occurredAt, GatewayEvent::failureCode)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Type.SUCCEEDED, charged, null),
            org.assertj.core.groups.Tuple.tuple(
                Type.DISPUTED, charged.plus(Duration.ofDays(5)), "fraudulent"),
            org.assertj.core.groups.Tuple.tuple(
                Type.RETURNED, charged.plus(Duration.ofDays(15)), "dispute_lost"));
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, Instant.EPOCH)).status())
        .isEqualTo(dev.billing.activities.payments.GatewayChargeState.Status.RETURNED);
    assertThatThrownBy(() -> gateway.refundAtDashboard(TXN, null))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("charge_not_refundable"));
  }

  @Test
  void refusesAKeyReusedWithAnotherAmount() {
    charge(SandboxPaymentMethods.VISA);
    gateway.refund(refund(REFUND_KEY1, new Money(100, "USD")));

    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, new Money(200, "USD"))))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageEndingWith("(differs: amount).");
    assertThat(gateway.refunds()).hasSize(1);
  }

  @Test
  void refusesUnknownUnsettledReturnedAndDeclinedCharges() {
    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, PRICE)))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("resource_missing");
              assertThat(e.getMessage()).isEqualTo("No such charge: '" + TXN + "'");
            });
    charge(SandboxPaymentMethods.BANK_DEBIT_RETURNED);
    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, PRICE)))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("charge_not_refundable");
              assertThat(e.getMessage()).contains("PENDING");
            });
    clock.advance(Duration.ofDays(5));
    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, PRICE)))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.getMessage()).contains("RETURNED"));
    assertThat(gateway.refunds()).isEmpty();
  }

  @Test
  void refusesAnotherCurrencyOrNothing() {
    charge(SandboxPaymentMethods.VISA);

    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, new Money(999, "EUR"))))
        .isInstanceOf(InvalidGatewayRequestException.class);
    assertThatThrownBy(() -> gateway.refund(refund(REFUND_KEY1, Money.zero("USD"))))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_too_small"));
    assertThat(gateway.refunds()).isEmpty();
  }

  private void charge(String token) {
    try {
      gateway.charge(
          new GatewayChargeRequest(
              KEY,
              PRICE,
              token,
              "Pro plan",
              Map.of(
                  GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "1")));
    } catch (RuntimeException e) {
      throw new AssertionError("charge failed", e);
    }
  }

  private static RefundRequest refund(String key, Money amount) {
    return new RefundRequest(key, TXN, amount, Reason.REQUESTED_BY_CUSTOMER);
  }
}
