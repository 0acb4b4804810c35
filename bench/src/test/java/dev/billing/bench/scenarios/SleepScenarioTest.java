package dev.billing.bench.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SleepScenarioTest {

  @Test
  void sleepersAreDueOnEveryDayButTheReconciledOne() {
    for (int reconciled = 1; reconciled <= 28; reconciled++) {
      Set<Integer> days = new HashSet<>();
      for (int i = 0; i < 100; i++) {
        days.add(SleepScenario.sleeperDay(i, reconciled));
      }
      assertThat(days).hasSize(27).doesNotContain(reconciled).allMatch(d -> d >= 1 && d <= 28);
    }
  }
}
