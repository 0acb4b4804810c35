package dev.billing.bench.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KillPlanTest {

  @Test
  void theSameSeedGivesTheSamePlanAndAnotherSeedAnother() {
    assertThat(KillPlan.draw(42, 20, 2000)).isEqualTo(KillPlan.draw(42, 20, 2000));
    assertThat(KillPlan.draw(43, 20, 2000).kills())
        .isNotEqualTo(KillPlan.draw(42, 20, 2000).kills());
  }

  @Test
  void everyKillLandsWhileTheDayIsCollectedInOrderAndOneDuringTheRepair() {
    KillPlan plan = KillPlan.draw(7, 20, 2000);

    assertThat(plan.kills()).hasSize(20);
    List<Long> triggers = plan.kills().stream().map(KillPlan.Kill::afterChargeCalls).toList();
    assertThat(triggers).isSorted().allSatisfy(t -> assertThat(t).isBetween(60L, 1799L));
    assertThat(plan.kills()).allSatisfy(k -> assertThat(k.pauseMillis()).isBetween(0L, 999L));
    assertThat(plan.kills()).filteredOn(KillPlan.Kill::duringRepair).hasSize(1);
    assertThat(plan.repairKill().number()).isEqualTo(11);
    assertThat(plan.kills()).extracting(KillPlan.Kill::number).startsWith(1, 2, 3).endsWith(20);
  }

  @Test
  void aTinyDayStillGetsItsKills() {
    assertThat(KillPlan.draw(1, 3, 10).kills())
        .hasSize(3)
        .allSatisfy(k -> assertThat(k.afterChargeCalls()).isBetween(1L, 9L));
  }
}
