package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every run's history replays against the current code: the workflow is deterministic. */
@Timeout(60)
class SubscriptionWorkflowReplayTest {

  @Test
  void historiesOfCreationDeclinePaymentAndCancellationReplay() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      t.fake.reminders(FakeBillingActivities.ReminderMode.FAIL_NON_RETRYABLE);
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested("sub-replay",
          new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "Europe/Paris", 3), "9.99"));
      workflow.created();
      t.runUntil("2028-03-10T00:00:00Z");
      workflow.cancel(new CancelRequest("done", "user:ada"));

      List<WorkflowExecutionHistory> histories = new ArrayList<>();
      for (String runId : t.fake.charges().stream().map(Call::runId).toList()) {
        histories.add(t.client.fetchHistory(BillingIds.workflowId("sub-replay"), runId));
      }
      histories.add(t.client.fetchHistory(BillingIds.workflowId("sub-replay")));
      // Run 1 (creation, failed reminder, decline), run 2 (paid), run 3 (cancelled).
      assertThat(histories).hasSize(3);

      for (WorkflowExecutionHistory history : histories) {
        WorkflowReplayer.replayWorkflowExecution(history, SubscriptionWorkflowImpl.class);
      }
    }
  }
}
