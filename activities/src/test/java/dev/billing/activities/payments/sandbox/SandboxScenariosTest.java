package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.DeclineKind;
import dev.billing.activities.payments.GatewayCharge;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.GatewayEvent.Type;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.activities.payments.sandbox.SandboxCharge.Outcome;
import dev.billing.domain.Money;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every scripted sandbox payment method, attempt by attempt, by the sandbox clock. */
class SandboxScenariosTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final Instant SETTLES = Instant.parse("2026-02-04T05:00:00.123Z");
  private static final Instant RETURNS = Instant.parse("2026-02-06T05:00:00.123Z");
  private static final Instant EPOCH = Instant.EPOCH;
  private static final Instant FAR = Instant.parse("2030-01-01T00:00:00Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final Money ZERO = Money.zero("USD");
  // printf 'charge:sub-1:1:N' | sha256sum | cut -c1-24, and for events 'charge:sub-1:1:N|<type>'
  private static final String KEY1 = "charge:sub-1:1:1";
  private static final String TXN1 = "ch_sb_335631d4fe51e776484e0fe6";
  private static final String KEY2 = "charge:sub-1:1:2";
  private static final String TXN2 = "ch_sb_a9bbb84fe609bb72a2dd4895";
  private static final String KEY3 = "charge:sub-1:1:3";
  private static final String TXN3 = "ch_sb_4235c4ca533025f4fd23e921";
  private static final String NEXT_PERIOD_KEY1 = "charge:sub-1:2:1";

  private final MutableClock clock = new MutableClock(T0);
  private final SandboxGateway gateway = new SandboxGateway(clock);

  @Test
  void recoversAfterTwoSoftDeclinesTheFirstTwoAttemptsOfEachPeriod() {
    String token = SandboxPaymentMethods.recoversAfter(2);

    PaymentDeclinedException first = decline(KEY1, token);
    clock.advance(Duration.ofDays(1));
    PaymentDeclinedException second = decline(KEY2, token);
    clock.advance(Duration.ofDays(2));
    GatewayCharge third = gateway.charge(request(KEY3, token, "1"));
    clock.advance(Duration.ofDays(25));
    PaymentDeclinedException nextPeriod = decline(NEXT_PERIOD_KEY1, token, "2");

    for (PaymentDeclinedException e : new PaymentDeclinedException[] {first, second, nextPeriod}) {
      assertThat(e.code()).isEqualTo("insufficient_funds");
      assertThat(e.getMessage()).isEqualTo("Your card has insufficient funds.");
      assertThat(e.kind()).isEqualTo(DeclineKind.SOFT);
    }
    assertThat(third)
        .isEqualTo(
            new GatewayCharge(TXN3, Instant.parse("2026-02-04T05:00:00.123Z"), false, false));
    assertThat(gateway.charges())
        .extracting(SandboxCharge::idempotencyKey, SandboxCharge::outcome)
        .containsExactly(
            tuple(KEY1, Outcome.DECLINED),
            tuple(KEY2, Outcome.DECLINED),
            tuple(KEY3, Outcome.SUCCEEDED),
            tuple(NEXT_PERIOD_KEY1, Outcome.DECLINED));
  }

  @Test
  void recoversAfterZeroSucceedsOnTheFirstAttempt() {
    GatewayCharge charge =
        gateway.charge(request(KEY1, SandboxPaymentMethods.recoversAfter(0), "1"));

    assertThat(charge).isEqualTo(new GatewayCharge(TXN1, T0, false, false));
  }

  @Test
  void recoversAfterCountsThePeriodsChargesWhenTheKeyCarriesNoAttemptNumber() {
    String token = SandboxPaymentMethods.recoversAfter(1);

    assertThatThrownBy(() -> gateway.charge(request("retry-a", token, "1")))
        .isInstanceOf(PaymentDeclinedException.class);
    GatewayCharge second = gateway.charge(request("retry-b", token, "1"));

    assertThat(second.replayed()).isFalse();
    assertThat(gateway.charges())
        .extracting(SandboxCharge::outcome)
        .containsExactly(Outcome.DECLINED, Outcome.SUCCEEDED);
  }

  @Test
  void aRepeatedDeclinedAttemptOfRecoversAfterStaysDeclined() {
    String token = SandboxPaymentMethods.recoversAfter(1);
    decline(KEY1, token);

    PaymentDeclinedException again = decline(KEY1, token);

    assertThat(again.code()).isEqualTo("insufficient_funds");
    assertThat(gateway.charges()).hasSize(1);
  }

  @Test
  void transientErrorsFailTheFirstNCallsOfEachKeyThenCharge() {
    String token = SandboxPaymentMethods.transientErrors(2);

    assertThatThrownBy(() -> gateway.charge(request(KEY1, token, "1")))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "Sandbox gateway error 1 of 2 for 'charge:sub-1:1:1'"
                            + " (simulated 503 Service Unavailable)"));
    GatewayChargeState afterFirstError =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));
    assertThatThrownBy(() -> gateway.charge(request(KEY1, token, "1")))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e -> assertThat(e.getMessage()).startsWith("Sandbox gateway error 2 of 2 "));
    GatewayCharge third = gateway.charge(request(KEY1, token, "1"));
    GatewayCharge fourth = gateway.charge(request(KEY1, token, "1"));

    assertThat(afterFirstError).isEqualTo(GatewayChargeState.notFound(KEY1));
    assertThat(third).isEqualTo(new GatewayCharge(TXN1, T0, false, false));
    assertThat(fourth).isEqualTo(new GatewayCharge(TXN1, T0, true, false));
    assertThat(gateway.charges()).hasSize(1);
    // Another key has its own errors.
    assertThatThrownBy(() -> gateway.charge(request(KEY2, token, "1")))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void aServerErrorWhileExecutingIsStoredAndReplayedForItsKeyUntilTheKeyIsForgotten() {
    String token = SandboxPaymentMethods.SERVER_ERROR;

    assertThatThrownBy(() -> gateway.charge(request(KEY1, token, "1")))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "Sandbox gateway error while executing the charge with key"
                            + " 'charge:sub-1:1:1' (simulated 500 Internal Server Error; nothing was charged)"));
    clock.advance(Duration.ofHours(23));
    // Stripe answers a repeat with the stored 500, not with a new execution.
    assertThatThrownBy(() -> gateway.charge(request(KEY1, token, "1")))
        .isInstanceOfSatisfying(
            GatewayUnavailableException.class,
            e -> assertThat(e.getMessage()).endsWith("(replayed for this key)"));
    // The stored request is compared like any other.
    assertThatThrownBy(
            () ->
                gateway.charge(
                    new GatewayChargeRequest(
                        KEY1,
                        new Money(1000, "USD"),
                        token,
                        "Pro plan",
                        Map.of(
                            GatewayChargeRequest.SUBSCRIPTION_ID,
                            "sub-1",
                            GatewayChargeRequest.CYCLE,
                            "1"))))
        .isInstanceOf(dev.billing.activities.payments.IdempotencyConflictException.class);
    // A list read is exact: no charge was made, so the caller may send the next key.
    assertThat(gateway.lookUp(new ChargeQuery(KEY1, null, T0)))
        .isEqualTo(GatewayChargeState.notFound(KEY1));
    assertThat(gateway.charges()).isEmpty();

    clock.advance(Duration.ofHours(1));
    GatewayCharge afterForgotten = gateway.charge(request(KEY1, token, "1"));

    assertThat(afterForgotten.replayed()).isFalse();
    assertThat(gateway.charges()).hasSize(1);
    // Another key has its own error.
    assertThatThrownBy(() -> gateway.charge(request(KEY2, token, "1")))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void timeoutAfterChargeMovesTheMoneyThenFailsAndAReplayTellsTheSuccess() {
    String token = SandboxPaymentMethods.TIMEOUT_AFTER_CHARGE;

    assertThatThrownBy(() -> gateway.charge(request(KEY1, token, "1")))
        .isInstanceOf(GatewayUnavailableException.class)
        .hasCauseInstanceOf(SocketTimeoutException.class);
    GatewayChargeState lookedUp =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));
    clock.advance(Duration.ofSeconds(30));
    GatewayCharge retried = gateway.charge(request(KEY1, token, "1"));

    assertThat(gateway.charges())
        .containsExactly(
            new SandboxCharge(
                KEY1,
                TXN1,
                PRICE,
                token,
                Outcome.SUCCEEDED,
                null,
                null,
                T0,
                "sub-1",
                1L,
                null,
                null));
    assertThat(lookedUp)
        .isEqualTo(
            new GatewayChargeState(
                Status.SUCCEEDED, KEY1, TXN1, PRICE, ZERO, "sub-1", 1L, T0, T0, null, null, null));
    assertThat(retried).isEqualTo(new GatewayCharge(TXN1, T0, true, false));
    assertThat(gateway.listEvents(EPOCH, FAR))
        .containsExactly(
            new GatewayEvent(
                "evt_sb_52306b91a4c665b053e402d5",
                Type.SUCCEEDED,
                T0,
                KEY1,
                TXN1,
                "sub-1",
                1,
                PRICE,
                null,
                null));
  }

  @Test
  void aBankDebitIsPendingForThreeDaysThenSettlesWithAnEventAtTheSettlementInstant() {
    GatewayCharge charge = gateway.charge(request(KEY1, SandboxPaymentMethods.BANK_DEBIT, "1"));
    clock.advance(Duration.ofHours(23));
    GatewayCharge replay = gateway.charge(request(KEY1, SandboxPaymentMethods.BANK_DEBIT, "1"));
    clock.advance(Duration.ofDays(3).minusHours(23).minusMillis(1));
    GatewayChargeState justBefore =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));
    List<GatewayEvent> eventsBefore = gateway.listEvents(EPOCH, FAR);
    clock.advance(Duration.ofMillis(1));
    GatewayChargeState atSettlement =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));

    assertThat(charge).isEqualTo(new GatewayCharge(TXN1, T0, false, true));
    assertThat(justBefore)
        .isEqualTo(
            new GatewayChargeState(
                Status.PENDING, KEY1, TXN1, PRICE, ZERO, "sub-1", 1L, T0, null, null, null, null));
    assertThat(eventsBefore).isEmpty();
    assertThat(atSettlement)
        .isEqualTo(
            new GatewayChargeState(
                Status.SUCCEEDED,
                KEY1,
                TXN1,
                PRICE,
                ZERO,
                "sub-1",
                1L,
                T0,
                SETTLES,
                null,
                null,
                null));
    // Like Stripe, a replay (within the 24 h the key is kept) answers the stored first response.
    assertThat(replay).isEqualTo(new GatewayCharge(TXN1, T0, true, true));
    assertThat(gateway.listEvents(EPOCH, FAR))
        .containsExactly(
            new GatewayEvent(
                "evt_sb_52306b91a4c665b053e402d5",
                Type.SUCCEEDED,
                SETTLES,
                KEY1,
                TXN1,
                "sub-1",
                1,
                PRICE,
                null,
                null));
  }

  @Test
  void aReturnedBankDebitSettlesThenIsReturnedTwoDaysLater() {
    GatewayCharge charge =
        gateway.charge(request(KEY1, SandboxPaymentMethods.BANK_DEBIT_RETURNED, "1"));
    clock.advance(Duration.ofDays(3));
    GatewayChargeState settled =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));
    clock.advance(Duration.ofDays(2).minusMillis(1));
    GatewayChargeState stillSettled =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));
    List<GatewayEvent> eventsBeforeReturn = gateway.listEvents(EPOCH, FAR);
    clock.advance(Duration.ofMillis(1));
    GatewayChargeState returned =
        gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH));

    assertThat(charge).isEqualTo(new GatewayCharge(TXN1, T0, false, true));
    assertThat(settled.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(stillSettled.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(eventsBeforeReturn).extracting(GatewayEvent::type).containsExactly(Type.SUCCEEDED);
    assertThat(returned)
        .isEqualTo(
            new GatewayChargeState(
                Status.RETURNED,
                KEY1,
                TXN1,
                PRICE,
                ZERO,
                "sub-1",
                1L,
                T0,
                SETTLES,
                RETURNS,
                "insufficient_funds",
                "The customer's bank returned the debit: insufficient funds."));
    assertThat(gateway.listEvents(EPOCH, FAR))
        .containsExactly(
            new GatewayEvent(
                "evt_sb_52306b91a4c665b053e402d5",
                Type.SUCCEEDED,
                SETTLES,
                KEY1,
                TXN1,
                "sub-1",
                1,
                PRICE,
                null,
                null),
            new GatewayEvent(
                "evt_sb_cf83ba1b0b4ddbc192828a35",
                Type.RETURNED,
                RETURNS,
                KEY1,
                TXN1,
                "sub-1",
                1,
                PRICE,
                "insufficient_funds",
                "The customer's bank returned the debit: insufficient funds."));
  }

  @Test
  void declinesAreFailedEventsAndLookUps() {
    decline(KEY1, SandboxPaymentMethods.EXPIRED_CARD);

    assertThat(gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH)))
        .isEqualTo(
            new GatewayChargeState(
                Status.FAILED,
                KEY1,
                TXN1,
                PRICE,
                ZERO,
                "sub-1",
                1L,
                T0,
                null,
                null,
                "expired_card",
                "Your card has expired."));
    assertThat(gateway.listEvents(EPOCH, FAR))
        .containsExactly(
            new GatewayEvent(
                "evt_sb_16fcf9f929e593a4bf319c63",
                Type.FAILED,
                T0,
                KEY1,
                TXN1,
                "sub-1",
                1,
                PRICE,
                "expired_card",
                "Your card has expired."));
  }

  @Test
  void listsEventsInAHalfOpenWindowUpToNowOldestFirst() {
    gateway.charge(request(KEY1, SandboxPaymentMethods.BANK_DEBIT_RETURNED, "1"));
    clock.advance(Duration.ofHours(1));
    gateway.charge(request(KEY2, SandboxPaymentMethods.VISA, "1"));
    Instant visaAt = T0.plus(Duration.ofHours(1));
    clock.advance(Duration.ofDays(4));

    assertThat(gateway.listEvents(EPOCH, FAR))
        .extracting(GatewayEvent::type, GatewayEvent::occurredAt)
        .containsExactly(tuple(Type.SUCCEEDED, visaAt), tuple(Type.SUCCEEDED, SETTLES));
    assertThat(gateway.listEvents(visaAt, SETTLES))
        .extracting(GatewayEvent::transactionId)
        .containsExactly(TXN2);
    assertThat(gateway.listEvents(visaAt.plusMillis(1), SETTLES.plusMillis(1)))
        .extracting(GatewayEvent::transactionId)
        .containsExactly(TXN1);
    // The return is due at RETURNS, after the sandbox's now: not listed yet, whatever the window.
    assertThat(gateway.listEvents(RETURNS, FAR)).isEmpty();
  }

  @Test
  void listsChargesCreatedInTheWindowAsOfNow() {
    gateway.charge(request(KEY1, SandboxPaymentMethods.BANK_DEBIT, "1"));
    clock.advance(Duration.ofDays(1));
    decline(KEY2, SandboxPaymentMethods.INSUFFICIENT_FUNDS);
    clock.advance(Duration.ofDays(2));

    assertThat(gateway.listCharges(T0, T0.plus(Duration.ofDays(1))))
        .containsExactly(
            new GatewayChargeState(
                Status.SUCCEEDED,
                KEY1,
                TXN1,
                PRICE,
                ZERO,
                "sub-1",
                1L,
                T0,
                SETTLES,
                null,
                null,
                null));
    assertThat(gateway.listCharges(EPOCH, FAR))
        .extracting(GatewayChargeState::transactionId, GatewayChargeState::status)
        .containsExactly(tuple(TXN1, Status.SUCCEEDED), tuple(TXN2, Status.FAILED));
  }

  @Test
  void chargesWithoutSubscriptionMetadataHaveNoEvents() {
    gateway.charge(
        new GatewayChargeRequest(KEY1, PRICE, SandboxPaymentMethods.VISA, null, Map.of()));

    assertThat(gateway.listEvents(EPOCH, FAR)).isEmpty();
    assertThat(
            gateway.lookUp(new ChargeQuery(KEY1, null, java.time.Instant.EPOCH)).subscriptionId())
        .isNull();
  }

  private PaymentDeclinedException decline(String key, String token) {
    return decline(key, token, "1");
  }

  private PaymentDeclinedException decline(String key, String token, String cycle) {
    try {
      gateway.charge(request(key, token, cycle));
    } catch (PaymentDeclinedException e) {
      return e;
    }
    throw new AssertionError("expected a decline for " + key);
  }

  private static GatewayChargeRequest request(String key, String token, String cycle) {
    return new GatewayChargeRequest(
        key,
        PRICE,
        token,
        "Pro plan",
        Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, cycle));
  }
}
