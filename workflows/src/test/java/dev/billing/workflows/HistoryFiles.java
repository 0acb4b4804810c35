package dev.billing.workflows;

import dev.billing.domain.BillingIds;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One release's directory of checked-in histories; a recorded history is never replaced. */
record HistoryFiles(Path dir) {

  /** Writes a run's history (the latest run when {@code runId} is null) unless the file exists. */
  void write(WorkflowClient client, String subscriptionId, String runId, String file)
      throws IOException {
    WorkflowExecutionHistory history =
        runId == null
            ? client.fetchHistory(BillingIds.workflowId(subscriptionId))
            : client.fetchHistory(BillingIds.workflowId(subscriptionId), runId);
    Files.createDirectories(dir);
    if (Files.exists(dir.resolve(file))) {
      return;
    }
    Files.writeString(dir.resolve(file), history.toJson(true));
  }
}
