package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.IdempotencyConflictException;
import dev.billing.activities.payments.InvalidGatewayRequestException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.sandbox.SandboxCharge.Outcome;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SandboxGatewayTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123456Z");
  private static final Instant T0_MILLIS = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String KEY = "charge:sub-1:1:1";
  // printf 'charge:sub-1:1:1' | sha256sum | cut -c1-24
  private static final String KEY_TXN = "ch_sb_335631d4fe51e776484e0fe6";

  private final MutableClock clock = new MutableClock(T0);
  private final SandboxGateway gateway = new SandboxGateway(clock);

  @Test
  void chargesVisaWithATransactionIdDerivedFromTheKey() {
    GatewayCharge charge = gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));

    assertThat(charge).isEqualTo(new GatewayCharge(KEY_TXN, T0_MILLIS, false));
    assertThat(gateway.charges())
        .containsExactly(
            new SandboxCharge(
                KEY,
                KEY_TXN,
                PRICE,
                "pm_card_visa",
                Outcome.SUCCEEDED,
                null,
                null,
                T0_MILLIS,
                "sub-1",
                1L,
                null,
                null));
  }

  @Test
  void differentKeysGetDifferentTransactionIds() {
    gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));
    clock.advance(Duration.ofDays(28));
    GatewayCharge second = gateway.charge(request("charge:sub-1:2:1", PRICE, "pm_card_visa"));

    assertThat(second.transactionId()).isEqualTo("ch_sb_7da91304bd28cc55efc4efb5");
    assertThat(second.processedAt()).isEqualTo(Instant.parse("2026-03-01T05:00:00.123Z"));
    assertThat(gateway.charges())
        .extracting(SandboxCharge::transactionId)
        .containsExactly(KEY_TXN, "ch_sb_7da91304bd28cc55efc4efb5");
  }

  @Test
  void declinesChargeDeclinedCardLikeStripe() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, PRICE, "pm_card_chargeDeclined")))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("card_declined");
              assertThat(e.getMessage()).isEqualTo("Your card was declined.");
              assertThat(e.kind()).isEqualTo(DeclineKind.HARD);
            });
    assertThat(gateway.charges())
        .containsExactly(
            new SandboxCharge(
                KEY,
                KEY_TXN,
                PRICE,
                "pm_card_chargeDeclined",
                Outcome.DECLINED,
                "card_declined",
                "Your card was declined.",
                T0_MILLIS,
                "sub-1",
                1L,
                null,
                null));
  }

  @Test
  void declinesInsufficientFundsWithItsOwnCode() {
    assertThatThrownBy(
            () -> gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.INSUFFICIENT_FUNDS)))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("insufficient_funds");
              assertThat(e.getMessage()).isEqualTo("Your card has insufficient funds.");
              assertThat(e.kind()).isEqualTo(DeclineKind.SOFT);
            });
  }

  @Test
  void declinesAnUnknownTokenNamingIt() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, PRICE, "pm_card_nope")))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("invalid_payment_method");
              assertThat(e.getMessage()).isEqualTo("No such payment method: 'pm_card_nope'");
            });
    assertThat(gateway.charges())
        .singleElement()
        .extracting(SandboxCharge::outcome, SandboxCharge::declineCode)
        .containsExactly(Outcome.DECLINED, "invalid_payment_method");
  }

  @Test
  void replaysASuccessWithoutChargingAgain() {
    GatewayCharge first = gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));
    clock.advance(Duration.ofMinutes(5));

    GatewayCharge replay = gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));

    assertThat(first.replayed()).isFalse();
    assertThat(replay).isEqualTo(new GatewayCharge(KEY_TXN, T0_MILLIS, true));
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void replaysADeclineEvenIfTheCardWouldNowBeFine() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, PRICE, "pm_card_chargeDeclined")))
        .isInstanceOf(PaymentDeclinedException.class);
    clock.advance(Duration.ofMinutes(5));

    assertThatThrownBy(() -> gateway.charge(request(KEY, PRICE, "pm_card_chargeDeclined")))
        .isInstanceOfSatisfying(
            PaymentDeclinedException.class,
            e -> {
              assertThat(e.code()).isEqualTo("card_declined");
              assertThat(e.getMessage()).isEqualTo("Your card was declined.");
            });
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void refusesAKeyReusedWithAnotherAmountAsAConflictNotADecline() {
    gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));

    assertThatThrownBy(() -> gateway.charge(request(KEY, new Money(1999, "USD"), "pm_card_visa")))
        .isInstanceOf(IdempotencyConflictException.class)
        .hasMessageContaining("'charge:sub-1:1:1'")
        .hasMessageEndingWith("(differs: amount).");
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void refusesUsdBelowFiftyCentsLikeStripeAndAcceptsFiftyCents() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, new Money(49, "USD"), "pm_card_visa")))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> {
              assertThat(e.code()).isEqualTo("amount_too_small");
              assertThat(e.getMessage())
                  .isEqualTo("Amount must be at least 0.50 USD, got 0.49 USD");
            });
    assertThat(gateway.charges()).isEmpty();

    // The refused request stored nothing: the same key with a chargeable amount is a first request.
    GatewayCharge charge = gateway.charge(request(KEY, new Money(50, "USD"), "pm_card_visa"));

    assertThat(charge).isEqualTo(new GatewayCharge(KEY_TXN, T0_MILLIS, false));
  }

  @Test
  void refusesJpyBelowFiftyYenAndAcceptsFifty() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, new Money(49, "JPY"), "pm_card_visa")))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_too_small"));

    assertThat(gateway.charge(request(KEY, new Money(50, "JPY"), "pm_card_visa")).replayed())
        .isFalse();
    assertThat(gateway.charges())
        .extracting(SandboxCharge::amount)
        .containsExactly(new Money(50, "JPY"));
  }

  @Test
  void rejectsZeroWithoutKeepingTheKey() {
    assertThatThrownBy(() -> gateway.charge(request(KEY, Money.zero("USD"), "pm_card_visa")))
        .isInstanceOfSatisfying(
            InvalidGatewayRequestException.class,
            e -> assertThat(e.code()).isEqualTo("amount_too_small"));

    // The key was not consumed by the invalid request, so the corrected one goes through.
    assertThat(gateway.charge(request(KEY, PRICE, "pm_card_visa")).replayed()).isFalse();
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void concurrentRequestsWithOneKeyChargeOnce() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<GatewayCharge>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return gateway.charge(request(KEY, PRICE, SandboxPaymentMethods.VISA));
                }));
      }
      start.countDown();
      List<GatewayCharge> charges = new ArrayList<>();
      for (Future<GatewayCharge> result : results) {
        charges.add(result.get(10, TimeUnit.SECONDS));
      }

      assertThat(gateway.charges()).hasSize(1);
      assertThat(charges).extracting(GatewayCharge::transactionId).containsOnly(KEY_TXN);
      assertThat(charges).filteredOn(c -> !c.replayed()).hasSize(1);
      assertThat(charges).filteredOn(GatewayCharge::replayed).hasSize(threads - 1);
    } finally {
      pool.shutdownNow();
    }
  }

  private static GatewayChargeRequest request(String key, Money amount, String token) {
    return new GatewayChargeRequest(
        key,
        amount,
        token,
        "Pro plan",
        Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "1"));
  }
}
