package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayChargeState;
import dev.billing.activities.payments.GatewayChargeState.Status;
import dev.billing.activities.payments.PaymentDeclinedException;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Look-ups are exact list reads; search lags, as Stripe's does. */
class SandboxLookupsTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final Money PRICE = new Money(999, "USD");
  private static final String KEY = "charge:sub-1:1:1";
  private static final String FIRST_TXN = "ch_sb_335631d4fe51e776484e0fe6";

  private final MutableClock clock = new MutableClock(T0);
  private final SandboxGateway gateway = new SandboxGateway(clock);

  @Test
  void aLookUpSeesAChargeAtOnceAndAfterItsKeyWasForgotten() {
    gateway.charge(charge("pm_card_visa"));
    GatewayChargeState atOnce = gateway.lookUp(new ChargeQuery(KEY, null, T0));
    clock.advance(Duration.ofDays(30));

    GatewayChargeState monthLater = gateway.lookUp(new ChargeQuery(KEY, null, T0));

    assertThat(atOnce.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(monthLater.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(monthLater.transactionId()).isEqualTo(FIRST_TXN);
  }

  @Test
  void aLookUpWithACustomerListsThatCustomersChargesOnlyAsStripeDoes() {
    // The sandbox knows no customers' cards, so this charge is declined: it exists all the same.
    assertThatThrownBy(() -> gateway.charge(charge("cus_A/pm_card_visa")))
        .isInstanceOf(PaymentDeclinedException.class);

    assertThat(gateway.lookUp(new ChargeQuery(KEY, "cus_A/pm_card_mastercard", T0)).status())
        .as("the same customer, another card")
        .isEqualTo(Status.FAILED);
    assertThat(gateway.lookUp(new ChargeQuery(KEY, "cus_B/pm_card_visa", T0)).status())
        .as("another customer's list does not hold it")
        .isEqualTo(Status.NOT_FOUND);
    assertThat(gateway.lookUp(new ChargeQuery(KEY, "pm_card_visa", T0)).status())
        .as("no customer: the whole account")
        .isEqualTo(Status.FAILED);
  }

  @Test
  void aLookUpListsFromSentFromLessAFewMinutesOfClockSlack() {
    gateway.charge(charge("pm_card_visa"));
    Instant justInSlack = T0.plus(SandboxGateway.LOOKUP_CLOCK_SLACK);
    Instant pastSlack = justInSlack.plusMillis(1);

    assertThat(SandboxGateway.LOOKUP_CLOCK_SLACK).isEqualTo(Duration.ofMinutes(5));
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, justInSlack)).status())
        .isEqualTo(Status.SUCCEEDED);
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, pastSlack)).status())
        .isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void ofTwoChargesWithOneKeyTheOneThatMovedMoneyWinsWhicheverCameFirst() {
    // Declined, then (the key forgotten) charged: the success wins although it is newer...
    assertThatThrownBy(() -> gateway.charge(charge("pm_card_chargeDeclined")))
        .isInstanceOf(PaymentDeclinedException.class);
    clock.advance(Duration.ofHours(25));
    String success = gateway.charge(charge("pm_card_visa")).transactionId();
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, T0)).transactionId()).isEqualTo(success);

    // ... and again when a decline comes after it.
    clock.advance(Duration.ofHours(25));
    assertThatThrownBy(() -> gateway.charge(charge("pm_card_chargeDeclined")))
        .isInstanceOf(PaymentDeclinedException.class);
    GatewayChargeState found = gateway.lookUp(new ChargeQuery(KEY, null, T0));

    assertThat(found.status()).isEqualTo(Status.SUCCEEDED);
    assertThat(found.transactionId()).isEqualTo(success);
    assertThat(gateway.charges()).hasSize(3);
  }

  @Test
  void ofSeveralThatMovedMoneyTheNewestWins() {
    gateway.charge(charge("pm_card_visa"));
    clock.advance(Duration.ofHours(25));
    String newer = gateway.charge(charge("pm_card_visa")).transactionId();

    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, T0)).transactionId()).isEqualTo(newer);
    // A later sentFrom leaves the older one out of the list altogether.
    assertThat(
            gateway
                .lookUp(new ChargeQuery(KEY, null, T0.plus(Duration.ofHours(24))))
                .transactionId())
        .isEqualTo(newer);
  }

  @Test
  void searchSeesAChargeOnlyAMinuteAfterItWasMade() {
    gateway.charge(charge("pm_card_visa"));
    clock.advance(Duration.ofSeconds(59));
    assertThat(gateway.searchByKey(KEY)).isEmpty();
    assertThat(gateway.lookUp(new ChargeQuery(KEY, null, T0)).status()).isEqualTo(Status.SUCCEEDED);
    clock.advance(Duration.ofSeconds(1));

    assertThat(gateway.searchByKey(KEY))
        .extracting(GatewayChargeState::transactionId)
        .containsExactly(FIRST_TXN);
  }

  @Test
  void searchLagIsConfigurableToAnOutage() {
    SandboxGateway lagging =
        new SandboxGateway(clock, SandboxSettings.defaults().withSearchLag(Duration.ofHours(1)));
    lagging.charge(charge("pm_card_visa"));
    clock.advance(Duration.ofMinutes(59));
    assertThat(lagging.searchByKey(KEY)).isEmpty();
    clock.advance(Duration.ofMinutes(1));

    assertThat(lagging.searchByKey(KEY)).hasSize(1);
  }

  @Test
  void listChargesIsExactAtOnce() {
    gateway.charge(charge("pm_card_visa"));

    assertThat(gateway.listCharges(T0, T0.plusMillis(1)))
        .extracting(GatewayChargeState::transactionId)
        .containsExactly(FIRST_TXN);
    assertThat(gateway.searchByKey(KEY)).isEmpty();
  }

  private static GatewayChargeRequest charge(String token) {
    return new GatewayChargeRequest(
        KEY,
        PRICE,
        token,
        "Pro plan",
        Map.of(GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "1"));
  }
}
