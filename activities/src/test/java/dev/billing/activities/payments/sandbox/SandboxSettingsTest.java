package dev.billing.activities.payments.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxSettingsTest {

  @Test
  void defaultsAreStripesTestMode() {
    assertThat(SandboxSettings.defaults())
        .isEqualTo(new SandboxSettings(Duration.ofHours(24), Duration.ofMinutes(1), 25));
    assertThat(SandboxSettings.fromEnvironment(Map.of())).isEqualTo(SandboxSettings.defaults());
  }

  @Test
  void readsTheEnvironment() {
    SandboxSettings settings =
        SandboxSettings.fromEnvironment(
            Map.of(
                "SANDBOX_IDEMPOTENCY_RETENTION",
                "PT1H",
                "SANDBOX_SEARCH_LAG",
                "PT2H",
                "SANDBOX_REQUESTS_PER_SECOND",
                "100"));

    assertThat(settings)
        .isEqualTo(new SandboxSettings(Duration.ofHours(1), Duration.ofHours(2), 100));
    assertThat(
            SandboxSettings.fromEnvironment(Map.of("SANDBOX_REQUESTS_PER_SECOND", "unlimited"))
                .rateLimited())
        .isFalse();
    SandboxSettings live = SandboxSettings.defaults().withRequestsPerSecond(100);
    assertThat(SandboxSettings.fromEnvironment(Map.of(), live)).isEqualTo(live);
    assertThat(
            SandboxSettings.fromEnvironment(Map.of("SANDBOX_REQUESTS_PER_SECOND", "25"), live)
                .requestsPerSecond())
        .isEqualTo(25);
  }

  @Test
  void refusesMalformedValuesNamingTheVariable() {
    assertThatThrownBy(
            () -> SandboxSettings.fromEnvironment(Map.of("SANDBOX_REQUESTS_PER_SECOND", "0")))
        .hasMessageContaining("SANDBOX_REQUESTS_PER_SECOND");
    assertThatThrownBy(
            () -> SandboxSettings.fromEnvironment(Map.of("SANDBOX_SEARCH_LAG", "1 minute")))
        .hasMessageContaining("SANDBOX_SEARCH_LAG");
    assertThatThrownBy(() -> SandboxSettings.defaults().withRequestsPerSecond(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SandboxSettings.defaults().withIdempotencyRetention(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
