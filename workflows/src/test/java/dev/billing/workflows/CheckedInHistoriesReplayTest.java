package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Histories recorded from released workflow code, checked in, replayed against the current code. A
 * change to the workflow that would break running subscriptions fails here; guard such a change
 * with Workflow.getVersion and record new histories next to the old ones (never replace them).
 *
 * <p>Record: {@code ./mvnw -pl workflows test -Dtest=CheckedInHistoriesReplayTest -Dbilling.recordHistories=true}
 */
@Timeout(60)
class CheckedInHistoriesReplayTest {

  private static final Path DIR = Path.of("src/test/resources/histories");

  @Test
  void everyCheckedInHistoryReplaysAgainstTheCurrentCode() throws Exception {
    List<Path> files;
    try (Stream<Path> listing = Files.list(DIR)) {
      files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files).extracting(p -> p.getFileName().toString()).contains(
        "v1-created-reminded-paid.json", "v1-created-declined.json", "v1-paid.json", "v1-cancelled.json");
    for (Path file : files) {
      WorkflowReplayer.replayWorkflowExecution(Files.readString(file), SubscriptionWorkflowImpl.class);
    }
  }

  @Test
  @EnabledIfSystemProperty(named = "billing.recordHistories", matches = "true")
  void record() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow happy = t.start(BillingTestEnvironment.requested("sub-history-happy",
          new BillingSchedule(YearMonth.of(2028, 1), 20, Term.MONTHLY, "America/New_York", 3), "19.90"));
      happy.created();
      t.runUntil("2028-01-25T00:00:00Z");
      String firstRun = t.fake.charges().get(0).runId();
      write(t.client, "sub-history-happy", firstRun, "v1-created-reminded-paid.json");
    }
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-history",
          new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "Europe/Paris", 3), "9.99"));
      workflow.created();
      t.runUntil("2028-03-10T00:00:00Z");
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      List<String> runs = t.fake.charges().stream().map(Call::runId).toList();
      write(t.client, "sub-history", runs.get(0), "v1-created-declined.json");
      write(t.client, "sub-history", runs.get(1), "v1-paid.json");
      write(t.client, "sub-history", null, "v1-cancelled.json");
    }
  }

  private static void write(WorkflowClient client, String subscriptionId, String runId, String file)
      throws IOException {
    WorkflowExecutionHistory history = runId == null
        ? client.fetchHistory(BillingIds.workflowId(subscriptionId))
        : client.fetchHistory(BillingIds.workflowId(subscriptionId), runId);
    Files.createDirectories(DIR);
    Files.writeString(DIR.resolve(file), history.toJson(true));
  }
}
