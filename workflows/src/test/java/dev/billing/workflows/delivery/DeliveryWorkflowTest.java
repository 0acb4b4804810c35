package dev.billing.workflows.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.workflows.BackgroundClose;
import dev.billing.workflows.TaskQueues;
import dev.billing.workflows.delivery.FakeDeliveryActivities.Answer;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The delivery workflow on the time-skipping test server, over {@link FakeDeliveryActivities}. */
@Timeout(120)
class DeliveryWorkflowTest {
  static final String QUEUE = TaskQueues.deliveries(TaskQueues.BILLING);
  static final String SUB = "sub_1";

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private FakeDeliveryActivities fake;

  @BeforeEach
  void start() {
    env =
        TestWorkflowEnvironment.newInstance(
            TestEnvironmentOptions.newBuilder()
                .setInitialTime(Instant.parse("2027-03-01T00:00:00Z"))
                .build());
    fake = new FakeDeliveryActivities(() -> env.currentTimeMillis());
    var worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(DeliveryWorkflowImpl.class);
    worker.registerActivitiesImplementations(fake);
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stop() {
    BackgroundClose.close(env);
  }

  static String evt(long version, int n) {
    return "evt_" + SUB + "_" + version + "_" + n;
  }

  void signal(String... ids) {
    DeliveryStarts.eventsRecorded(client, QUEUE, SUB, List.of(ids));
  }

  DeliveryResult awaitEnd() {
    return WorkflowStub.fromTyped(
            client.newWorkflowStub(DeliveryWorkflow.class, DeliveryWorkflow.workflowId(SUB)))
        .getResult(DeliveryResult.class);
  }

  @Test
  void eventsReachEveryEndpointInOrderOnceEachAndAreSettled() {
    fake.endpoints("ep_a", "ep_b");
    signal(evt(2, 1), evt(1, 0), evt(2, 0));
    signal(evt(1, 0)); // a duplicate: the record activity's retry, or the sweep

    assertThat(awaitEnd()).isEqualTo(new DeliveryResult(6, 0));
    List<String> order = List.of(evt(1, 0), evt(2, 0), evt(2, 1));
    assertThat(fake.receivedBy("ep_a")).containsExactlyElementsOf(order);
    assertThat(fake.receivedBy("ep_b")).containsExactlyElementsOf(order);
    assertThat(fake.settledSet()).containsExactlyInAnyOrderElementsOf(order);
  }

  @Test
  void anEndpointDownForADayGetsEveryEventAfterwardsInOrderOnceWhileTheOtherIsNotHeldUp()
      throws Exception {
    fake.endpoints("ep_up", "ep_down");
    fake.downUntil("ep_down", env.currentTimeMillis() + Duration.ofDays(1).toMillis());
    signal(evt(1, 0));
    env.sleep(Duration.ofHours(2));
    signal(evt(2, 0), evt(2, 1));
    env.sleep(Duration.ofHours(2));
    assertThat(fake.receivedBy("ep_up")).containsExactly(evt(1, 0), evt(2, 0), evt(2, 1));
    assertThat(fake.receivedBy("ep_down")).isEmpty();

    signal(evt(3, 0));
    DeliveryResult debugResult = awaitEnd();
    java.nio.file.Files.writeString(
        java.nio.file.Path.of("/tmp/delivery-debug.json"),
        client.fetchHistory(DeliveryWorkflow.workflowId(SUB)).toJson(true));
    assertThat(debugResult).isEqualTo(new DeliveryResult(8, 0));
    assertThat(fake.receivedBy("ep_down"))
        .containsExactly(evt(1, 0), evt(2, 0), evt(2, 1), evt(3, 0));
    // When it arrived, not the clock after the end: the test server may run the clock on then.
    assertThat(fake.receivedAt("ep_down:" + evt(1, 0)))
        .as("the first try after the outage, an hour apart at most")
        .isBetween(Instant.parse("2027-03-02T00:00:00Z"), Instant.parse("2027-03-02T01:00:01Z"));
    assertThat(fake.failures).isEmpty();
  }

  @Test
  void afterThreeDaysOfFailuresTheDeliveryIsRecordedFailedAndTheNextEventGoes() {
    fake.endpoints("ep_a");
    fake.downUntil("ep_a", env.currentTimeMillis() + Duration.ofDays(3).plusMinutes(30).toMillis());
    signal(evt(1, 0));
    env.sleep(Duration.ofDays(2)); // the next event's own window runs to day 5
    signal(evt(2, 0));

    assertThat(awaitEnd()).isEqualTo(new DeliveryResult(1, 1));
    assertThat(fake.failures).containsExactly("ep_a:" + evt(1, 0) + ":retries_exhausted");
    assertThat(fake.receivedBy("ep_a")).containsExactly(evt(2, 0));
    assertThat(fake.settledSet()).containsExactlyInAnyOrder(evt(1, 0), evt(2, 0));
  }

  @Test
  void anEndpointThatStaysDownCostsTheFirstEventThreeDaysAndEachLaterOneAnHour() {
    Instant start = Instant.ofEpochMilli(env.currentTimeMillis());
    fake.endpoints("ep_a");
    fake.downUntil("ep_a", env.currentTimeMillis() + Duration.ofDays(30).toMillis());
    signal(evt(1, 0), evt(2, 0), evt(3, 0));

    assertThat(awaitEnd()).isEqualTo(new DeliveryResult(0, 3));
    assertThat(fake.failures)
        .containsExactly(
            "ep_a:" + evt(1, 0) + ":retries_exhausted",
            "ep_a:" + evt(2, 0) + ":retries_exhausted",
            "ep_a:" + evt(3, 0) + ":retries_exhausted");
    assertThat(fake.failedAt("ep_a:" + evt(3, 0)))
        .isBetween(start.plus(Duration.ofDays(3)), start.plus(Duration.ofDays(3).plusHours(3)));
  }

  @Test
  void aDeliveryGetsWhatIsLeftOfItsEventsThreeDaysAndAnHourAtLeast() {
    Instant created = Instant.parse("2027-03-01T00:00:00Z");
    assertThat(
            DeliveryActivityOptions.deliver(created, created.plus(Duration.ofHours(5)))
                .getScheduleToCloseTimeout())
        .isEqualTo(Duration.ofDays(3).minusHours(5));
    assertThat(
            DeliveryActivityOptions.deliver(created, created.plus(Duration.ofDays(4)))
                .getScheduleToCloseTimeout())
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void gone410EndsThatDeliveryAtOnceAndADeletedEndpointsQueueIsDropped() {
    fake.endpoints("ep_gone", "ep_deleted");
    fake.answer("ep_gone", Answer.GONE_410);
    fake.answer("ep_deleted", Answer.DELETED);
    signal(evt(1, 0), evt(2, 0));

    assertThat(awaitEnd()).isEqualTo(new DeliveryResult(0, 2));
    assertThat(fake.failures).as("410 is no retried failure").isEmpty();
    assertThat(fake.settledSet()).containsExactlyInAnyOrder(evt(1, 0), evt(2, 0));
  }

  @Test
  void aRedeliveryReachesAnEndpointTheEventReachedBefore() {
    fake.endpoints("ep_a");
    signal(evt(1, 0));
    awaitEnd();
    DeliveryStarts.redeliver(client, QUEUE, SUB, new Redelivery(evt(1, 0), "ops"));
    signal(evt(1, 0)); // the record's own duplicate: found finished, not sent again

    assertThat(awaitEnd()).isEqualTo(new DeliveryResult(1, 0));
    assertThat(fake.receivedBy("ep_a")).containsExactly(evt(1, 0), evt(1, 0));
  }

  @Test
  void aLongRunContinuesAsNewBetweenDeliveriesAndLosesNoEventAndSendsNoneTwice() {
    fake.endpoints("ep_a");
    List<String> ids = IntStream.rangeClosed(1, 400).mapToObj(v -> evt(v, 0)).toList();
    for (int from = 0; from < ids.size(); from += 20) {
      signal(ids.subList(from, from + 20).toArray(String[]::new));
    }
    awaitEnd();
    assertThat(fake.receivedBy("ep_a")).containsExactlyElementsOf(ids);
    var runs = new ArrayList<String>();
    client
        .fetchHistory(DeliveryWorkflow.workflowId(SUB))
        .getEvents()
        .forEach(
            e -> {
              if (e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) {
                runs.add(
                    e.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId());
              }
            });
    assertThat(runs.get(0)).as("the last run was continued from another").isNotEmpty();
  }
}
