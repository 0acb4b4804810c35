package dev.billing.workflows.delivery;

import dev.billing.workflows.BackgroundClose;
import dev.billing.workflows.TaskQueues;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Recorded histories of the delivery workflow, replayed by every build from then on. */
public final class DeliveryHistories {
  private DeliveryHistories() {}

  /** The files {@link #record} writes. */
  public static final List<String> FILES = List.of("deliveries-retried-redelivered.json");

  /**
   * {@code deliveries-retried-redelivered}: three events of two changes to two endpoints, one of
   * them down for two hours (retried, then every event in order), a duplicate signal, and a
   * redelivery asked for while the run is still under way. Writes nothing that exists.
   */
  public static void record(Path dir) throws IOException {
    Path file = dir.resolve(FILES.get(0));
    if (Files.exists(file)) {
      return;
    }
    String queue = TaskQueues.deliveries(TaskQueues.BILLING);
    String sub = "sub-history-deliveries";
    TestWorkflowEnvironment env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2028-01-01T00:00:00Z"))
                .build());
    try {
      FakeDeliveryActivities fake = new FakeDeliveryActivities(env::currentTimeMillis);
      fake.endpoints("ep_a", "ep_b");
      fake.downUntil("ep_b", env.currentTimeMillis() + Duration.ofHours(2).toMillis());
      var worker = env.newWorker(queue);
      worker.registerWorkflowImplementationTypes(DeliveryWorkflowImpl.class);
      worker.registerActivitiesImplementations(fake);
      env.start();
      WorkflowClient client = env.getWorkflowClient();
      DeliveryStarts.eventsRecorded(client, queue, sub, List.of("evt_" + sub + "_1_0"));
      env.sleep(Duration.ofMinutes(5));
      DeliveryStarts.eventsRecorded(
          client, queue, sub, List.of("evt_" + sub + "_2_0", "evt_" + sub + "_2_1"));
      DeliveryStarts.eventsRecorded(client, queue, sub, List.of("evt_" + sub + "_1_0"));
      DeliveryStarts.redeliver(client, queue, sub, new Redelivery("evt_" + sub + "_1_0", "ops"));
      WorkflowStub.fromTyped(
              client.newWorkflowStub(DeliveryWorkflow.class, DeliveryWorkflow.workflowId(sub)))
          .getResult(DeliveryResult.class);
      Files.createDirectories(dir);
      Files.writeString(file, client.fetchHistory(DeliveryWorkflow.workflowId(sub)).toJson(true));
    } finally {
      BackgroundClose.close(env);
    }
  }
}
