package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.activities.MutableClock;
import dev.billing.activities.payments.ChargeQuery;
import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayUnavailableException;
import dev.billing.domain.Money;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Stripe's 429, on a monotonic clock the test moves; the sandbox clock plays no part. */
class SandboxRateLimitTest {
  private static final Instant T0 = Instant.parse("2026-02-01T05:00:00.123Z");
  private static final long MILLI = 1_000_000L;

  private final MutableClock clock = new MutableClock(T0);
  private final AtomicLong nanos = new AtomicLong(Long.MAX_VALUE - 500 * MILLI); // overflows
  private final SandboxGateway gateway =
      new SandboxGateway(clock, SandboxSettings.defaults(), nanos::get);

  @Test
  void theTwentySixthRequestInOneSecondIsRateLimitedAndStoresNothing() {
    for (int i = 1; i <= 25; i++) {
      gateway.charge(charge("charge:sub-" + i + ":1:1"));
      nanos.addAndGet(MILLI);
    }

    assertThatThrownBy(() -> gateway.charge(charge("charge:sub-26:1:1")))
        .isInstanceOf(GatewayUnavailableException.class)
        .hasMessageStartingWith("Rate limited: more than 25 requests per second")
        .hasMessageContaining("429");
    assertThat(gateway.charges()).hasSize(25);

    // A second after the first request its slot is free again: the retry with the same key charges.
    nanos.addAndGet(1000 * MILLI - 25 * MILLI);
    assertThat(gateway.charge(charge("charge:sub-26:1:1")).replayed()).isFalse();
    assertThat(gateway.charges()).hasSize(26);
  }

  @Test
  void everyRequestCountsReadsIncluded() {
    for (int i = 0; i < 25; i++) {
      gateway.lookUp(new ChargeQuery("charge:sub-1:1:1", null, T0));
    }

    assertThatThrownBy(() -> gateway.listCharges(T0, T0.plusSeconds(1)))
        .isInstanceOf(GatewayUnavailableException.class);
    assertThatThrownBy(() -> gateway.listEvents(T0, T0.plusSeconds(1)))
        .isInstanceOf(GatewayUnavailableException.class);
    assertThatThrownBy(() -> gateway.searchByKey("charge:sub-1:1:1"))
        .isInstanceOf(GatewayUnavailableException.class);
    // The sandbox's own views (dev endpoint, test assertions) are not API requests.
    assertThat(gateway.charges()).isEmpty();
  }

  @Test
  void theEventsAsAWebhookSenderSeesThemSpendNoRequests() {
    gateway.charge(
        new GatewayChargeRequest(
            "charge:sub-1:1:1",
            new Money(999, "USD"),
            "pm_card_visa",
            "Pro plan",
            Map.of(
                GatewayChargeRequest.SUBSCRIPTION_ID, "sub-1", GatewayChargeRequest.CYCLE, "1")));
    for (int i = 0; i < 100; i++) {
      assertThat(gateway.events(Instant.EPOCH, Instant.MAX)).hasSize(1);
    }

    for (int i = 2; i <= 25; i++) {
      gateway.charge(charge("charge:sub-" + i + ":1:1"));
    }
    assertThat(gateway.charges()).hasSize(25);
  }

  @Test
  void jumpsOfTheSandboxClockDoNotRefillTheWindow() {
    for (int i = 0; i < 25; i++) {
      gateway.lookUp(new ChargeQuery("charge:sub-1:1:1", null, T0));
      clock.advance(Duration.ofDays(1));
    }

    assertThatThrownBy(() -> gateway.lookUp(new ChargeQuery("charge:sub-1:1:1", null, T0)))
        .isInstanceOf(GatewayUnavailableException.class);
  }

  @Test
  void theLimitIsConfigurableAndCanBeTurnedOffExplicitly() {
    SandboxGateway live =
        new SandboxGateway(
            clock, SandboxSettings.defaults().withRequestsPerSecond(100), nanos::get);
    SandboxGateway unlimited =
        new SandboxGateway(clock, SandboxSettings.defaults().withoutRateLimit(), nanos::get);
    for (int i = 0; i < 100; i++) {
      live.lookUp(new ChargeQuery("k", null, T0));
    }
    for (int i = 0; i < 1000; i++) {
      unlimited.lookUp(new ChargeQuery("k", null, T0));
    }

    assertThatThrownBy(() -> live.lookUp(new ChargeQuery("k", null, T0)))
        .hasMessageStartingWith("Rate limited: more than 100 requests per second");
  }

  private static GatewayChargeRequest charge(String key) {
    return new GatewayChargeRequest(
        key, new Money(999, "USD"), "pm_card_visa", "Pro plan", Map.of());
  }
}
