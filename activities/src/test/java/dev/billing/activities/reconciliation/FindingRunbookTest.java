package dev.billing.activities.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.reconciliation.FindingKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every finding a report can carry has its section in the operators' runbook. */
class FindingRunbookTest {
  private static final Path RUNBOOK = Path.of("..", "docs", "operations.md");

  @Test
  void everyFindingKindHasASectionSayingWhatAnOperatorDoes() throws IOException {
    String runbook = Files.readString(RUNBOOK);
    for (FindingKind kind : FindingKind.values()) {
      String heading = "#### `" + kind.name() + "`\n";
      assertThat(runbook).as("a section for " + kind).contains(heading);
      int start = runbook.indexOf(heading) + heading.length();
      int next = runbook.indexOf("\n#", start);
      String section = runbook.substring(start, next < 0 ? runbook.length() : next);
      assertThat(section).as("what an operator does about " + kind).contains("You:");
    }
  }

  @Test
  void aSecondChargeIsNeverRefundedThroughThePeriodsOwnRefund() throws IOException {
    String runbook = Files.readString(RUNBOOK);
    int start = runbook.indexOf("#### `CHARGE_WITHOUT_PERIOD`");
    String section = runbook.substring(start, runbook.indexOf("\n#", start + 1));
    assertThat(section).doesNotContain("/refund").contains("refund the charge the finding names");
  }
}
