package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayRefund;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.RefundRequest.Reason;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stripe's idempotency rules on the sandbox clock: keys kept 24 h, any other parameter conflicts.
 */
class SandboxIdempotencyTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String KEY = "charge:sub-1:1:1";
  private static final String FIRST_TXN = "ch_sb_335631d4fe51e776484e0fe6";
  private static final String REFUND_KEY = "refund:sub-1:1:1";
  private static final Map<String, String> METADATA =
      Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "1");

  private final MutableClock clock = new MutableClock(T0);
  private final SandboxGateway gateway = new SandboxGateway(clock);

  @Test
  void aKeyIsReplayedUntilTwentyFourHoursAfterItsFirstRequest() {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    clock.advance(Duration.ofHours(24).minusMillis(1));

    GatewayCharge replay = gateway.charge(charge(PRICE, "pm_card_visa"));

    assertThat(replay).isEqualTo(new GatewayCharge(FIRST_TXN, T0, true));
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void aKeyReusedTwentyFourHoursLaterIsANewChargeWithANewId() {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    clock.advance(Duration.ofHours(24));

    GatewayCharge again = gateway.charge(charge(PRICE, "pm_card_visa"));

    assertThat(again.replayed()).isFalse();
    assertThat(again.transactionId())
        .isEqualTo(SandboxIds.transactionId(KEY, 2))
        .isNotEqualTo(FIRST_TXN);
    assertThat(again.processedAt()).isEqualTo(T0.plus(Duration.ofHours(24)));
    assertThat(gateway.charges())
        .extracting(SandboxCharge::transactionId)
        .containsExactly(FIRST_TXN, again.transactionId());
    // Each charge has its own events, so a webhook receiver deduplicating by id keeps both.
    assertThat(gateway.listEvents(Instant.EPOCH, T0.plus(Duration.ofDays(2))))
        .extracting(GatewayEvent::id)
        .doesNotHaveDuplicates()
        .hasSize(2);
  }

  @Test
  void aForgottenKeyMayCarryOtherParameters() {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    clock.advance(Duration.ofHours(25));

    GatewayCharge again = gateway.charge(charge(new Money(1999, "USD"), "pm_card_mastercard"));

    assertThat(again.replayed()).isFalse();
    assertThat(gateway.charges())
        .extracting(SandboxCharge::amount)
        .containsExactly(PRICE, new Money(1999, "USD"));
  }

  @Test
  void theRetentionIsConfigurable() {
    SandboxGateway hourly =
        new SandboxGateway(
            clock, SandboxSettings.defaults().withIdempotencyRetention(Duration.ofHours(1)));
    hourly.charge(charge(PRICE, "pm_card_visa"));
    clock.advance(Duration.ofMinutes(59));
    assertThat(hourly.charge(charge(PRICE, "pm_card_visa")).replayed()).isTrue();
    clock.advance(Duration.ofMinutes(1));

    assertThat(hourly.charge(charge(PRICE, "pm_card_visa")).replayed()).isFalse();
    assertThat(hourly.charges()).hasSize(2);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      textBlock =
          """
      amount         | 1000 | USD | pm_card_visa                 | Pro plan  | 1
      currency       | 999  | EUR | pm_card_visa                 | Pro plan  | 1
      payment_method | 999  | USD | pm_card_mastercard           | Pro plan  | 1
      customer       | 999  | USD | cus_Other/pm_card_visa       | Pro plan  | 1
      description    | 999  | USD | pm_card_visa                 | Basic     | 1
      metadata       | 999  | USD | pm_card_visa                 | Pro plan  | 2
      """)
  void aKeyReusedWithAnyOtherParameterIsAConflict(
      String differs,
      long amount,
      String currency,
      String token,
      String description,
      String cycle) {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    clock.advance(Duration.ofHours(23));
    GatewayChargeRequest reused =
        new GatewayChargeRequest(
            KEY,
            new Money(amount, currency),
            token,
            description,
            Map.of(
                GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, cycle));

    assertThatThrownBy(() -> gateway.charge(reused))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessage(
            "Keys for idempotent requests can only be used with the same parameters they"
                + " were first used with. Try using a key other than '"
                + KEY
                + "' if you meant to"
                + " execute a different request (differs: "
                + differs
                + ").");
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void onlyTheCustomerOfATokenMayDiffer() {
    // The sandbox knows no customers: it declines, and stores the decline under the key.
    assertThatThrownBy(
            () ->
                gateway.charge(
                    new GatewayChargeRequest(
                        KEY, PRICE, "cus_A/pm_card_visa", "Pro plan", METADATA)))
        .isInstanceOf(PaymentDeclinedException.class);

    assertThatThrownBy(
            () ->
                gateway.charge(
                    new GatewayChargeRequest(
                        KEY, PRICE, "cus_B/pm_card_visa", "Pro plan", METADATA)))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageEndingWith("(differs: customer).")
        .hasMessageNotContaining("cus_");
  }

  @Test
  void aRefundKeyIsKeptTwentyFourHoursThenARefundWithItIsNew() {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    GatewayRefund first = gateway.refund(refund(new Money(100, "USD")));
    clock.advance(Duration.ofHours(24).minusMillis(1));
    GatewayRefund replay = gateway.refund(refund(new Money(100, "USD")));
    clock.advance(Duration.ofMillis(1));

    GatewayRefund second = gateway.refund(refund(new Money(100, "USD")));

    assertThat(replay).isEqualTo(first);
    assertThat(second.refundId())
        .isEqualTo(SandboxIds.refundId(REFUND_KEY, 2))
        .isNotEqualTo(first.refundId());
    assertThat(gateway.refunds()).hasSize(2);
  }

  @Test
  void aRefundKeyReusedWithAnotherChargeOrReasonIsAConflict() {
    gateway.charge(charge(PRICE, "pm_card_visa"));
    gateway.refund(refund(new Money(100, "USD")));

    assertThatThrownBy(
            () ->
                gateway.refund(
                    new RefundRequest(
                        REFUND_KEY,
                        "ch_sb_other",
                        new Money(100, "USD"),
                        Reason.REQUESTED_BY_CUSTOMER)))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageEndingWith("(differs: charge).");
    assertThatThrownBy(
            () ->
                gateway.refund(
                    new RefundRequest(
                        REFUND_KEY, FIRST_TXN, new Money(100, "USD"), Reason.DUPLICATE)))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageEndingWith("(differs: reason).");
    assertThat(gateway.refunds()).hasSize(1);
  }

  private static GatewayChargeRequest charge(Money amount, String token) {
    return new GatewayChargeRequest(KEY, amount, token, "Pro plan", METADATA);
  }

  private static RefundRequest refund(Money amount) {
    return new RefundRequest(REFUND_KEY, FIRST_TXN, amount, Reason.REQUESTED_BY_CUSTOMER);
  }
}
