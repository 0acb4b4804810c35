package dev.billing.bench.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HotPartitionModelTest {

  @Test
  void everythingDueAtOnceQueuesBehindTheFleetAndOneKeyTakesEveryWrite() {
    HotPartitionModel.Result r = HotPartitionModel.simulate(10_000, i -> 0, i -> 0, 1, 2_000);

    assertThat(r.peakPerKey()).isEqualTo(2_000);
    assertThat(r.peakChargesPerSecond()).isEqualTo(2_000);
    assertThat(r.billingSeconds()).isEqualTo(5);
    assertThat(r.secondsOverLimit()).isEqualTo(5);
  }

  @Test
  void shardsSplitEachSecondsWritesByTheirShareOfTheSubscriptions() {
    HotPartitionModel.Result r = HotPartitionModel.simulate(10_000, i -> 0, i -> i % 4, 4, 2_000);

    assertThat(r.peakPerKey()).isEqualTo(500);
    assertThat(r.secondsOverLimit()).isZero();
  }

  @Test
  void spreadDueInstantsArriveSlowerThanTheFleetAndWaitForNothing() {
    // one subscription due per second for 3,600 s
    HotPartitionModel.Result r = HotPartitionModel.simulate(3_600, i -> i, i -> 0, 1, 2_000);

    assertThat(r.peakPerKey()).isEqualTo(1);
    assertThat(r.billingSeconds()).isEqualTo(3_600);
  }
}
