package dev.billing.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    BenchOptions options = BenchOptions.parse(new String[0]);
    assertThat(options.scenarios()).isEqualTo(Set.of(1, 2, 3, 4, 5));
    assertThat(options.peak()).isEqualTo(2000);
    assertThat(options.trials()).isEqualTo(3);
    assertThat(options.warmup()).isEqualTo(2);
    assertThat(options.gatewayLatencyMillis()).isZero();
    assertThat(options.sleepers()).containsExactly(1000, 2000, 4000);
    assertThat(options.priceActions()).isEqualTo(50.0);
    assertThat(options.priceWrite()).isEqualTo(0.625);
    assertThat(options.priceRead()).isEqualTo(0.125);
  }

  @Test
  void flagsOverrideDefaults() {
    BenchOptions options =
        BenchOptions.parse(
            new String[] {
              "--scenarios=1,2",
              "--peak=20000",
              "--sleepers=1000,10000,100000",
              "--price-actions=25",
              "--gateway-latency=250"
            });
    assertThat(options.scenarios()).isEqualTo(Set.of(1, 2));
    assertThat(options.peak()).isEqualTo(20000);
    assertThat(options.sleepers()).isEqualTo(List.of(1000, 10000, 100000));
    assertThat(options.priceActions()).isEqualTo(25.0);
    assertThat(options.gatewayLatencyMillis()).isEqualTo(250);
  }

  @Test
  void theCrashScenarioRunsOnlyWhenNamedWithItsDefaultsOrAGivenSeed() {
    BenchOptions defaults = BenchOptions.parse(new String[0]);
    assertThat(defaults.scenarios()).doesNotContain(BenchOptions.CRASH);
    assertThat(defaults.crashSubscriptions()).isEqualTo(2000);
    assertThat(defaults.kills()).isEqualTo(20);
    assertThat(defaults.crashGatewayLatencyMillis()).isEqualTo(200);

    BenchOptions crash =
        BenchOptions.parse(
            new String[] {
              "--scenarios=crash", "--crash-subscriptions=300", "--kills=3", "--seed=-42"
            });
    assertThat(crash.scenarios()).containsExactly(BenchOptions.CRASH);
    assertThat(List.of(crash.crashSubscriptions(), crash.kills())).containsExactly(300, 3);
    assertThat(crash.seed()).isEqualTo(-42L);
    assertThat(crash.asMap()).containsEntry("seed", -42L);
  }

  @Test
  void badFlagsAreRefusedWithTheirName() {
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--peek=10"}))
        .hasMessageContaining("--peek");
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--peak=0"}))
        .hasMessageContaining("--peak");
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--sleepers=100,50"}))
        .hasMessageContaining("grow");
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--scenarios=7"}))
        .hasMessageContaining("1 to 5");
    assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--gateway-latency=-1"}))
        .hasMessageContaining("--gateway-latency");
  }
}
