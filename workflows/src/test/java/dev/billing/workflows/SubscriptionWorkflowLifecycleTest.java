package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.SubscriptionState.Phase;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Creation and cancellation: what is recorded, and when the updates return. */
@Timeout(60)
class SubscriptionWorkflowLifecycleTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void createdUpdateReturnsOnlyOnceTheCreationIsRecorded() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.holdRecord("create");
      SubscriptionWorkflow workflow =
          t.client.newWorkflowStub(
              SubscriptionWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setWorkflowId(BillingIds.workflowId("sub-new"))
                  .setTaskQueue(TaskQueues.BILLING)
                  .setWorkflowIdConflictPolicy(
                      WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
                  .build());
      SubscriptionInput input =
          new SubscriptionInput(
              BillingTestEnvironment.requested("sub-new", ON_THE_15TH, "9.99"), false);

      // As the API does it: start the workflow and wait for the creation in one call.
      WorkflowUpdateHandle<SubscriptionState> created =
          WorkflowClient.startUpdateWithStart(
              workflow::created,
              UpdateOptions.<SubscriptionState>newBuilder()
                  .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
                  .build(),
              new WithStartWorkflowOperation<>(workflow::run, input));
      t.fake.awaitHeldRecordStarted();
      CompletableFuture<SubscriptionState> result = created.getResultAsync();

      assertThat(workflow.state().phase()).isEqualTo(Phase.RECORDING_CREATION);
      Thread.sleep(200);
      assertThat(result).as("still waiting for the record").isNotDone();

      t.fake.openRecord();
      SubscriptionState state = result.get(10, TimeUnit.SECONDS);
      assertThat(state.subscription().version()).isEqualTo(1);
      assertThat(state.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 1, 15));
      assertThat(state.subscription().nextReminderDate()).isEqualTo(LocalDate.of(2028, 1, 12));
      assertThat(state.phase()).isEqualTo(Phase.WAITING_FOR_REMINDER);
      assertThat(state.lastOutcome())
          .isEqualTo("subscription created (version 1); cycle 1 due 2028-01-15");

      RecordInput creation = t.fake.records().get(0).input();
      assertThat(creation.changeId()).isEqualTo("create");
      assertThat(creation.event()).isEqualTo(HistoryEvent.SUBSCRIPTION_CREATED);
      assertThat(creation.process()).isEqualTo(Process.API);
      assertThat(creation.actor()).isEqualTo("api");
      assertThat(creation.previous()).isNull();
      assertThat(creation.next()).isEqualTo(state.subscription());
      assertThat(creation.period()).isNull();
      assertThat(creation.receipt()).isNull();
    }
  }

  @Test
  void cancelBeforeTheReminderRecordsItAndEndsWithoutReminderOrCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bye", ON_THE_15TH, "9.99"));
      workflow.created();

      SubscriptionState cancelled = workflow.cancel(new CancelRequest("too expensive", "user:ada"));

      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(cancelled.subscription().version()).isEqualTo(2);
      assertThat(cancelled.subscription().nextPaymentDate()).isNull();
      assertThat(cancelled.subscription().nextReminderDate()).isNull();
      assertThat(cancelled.phase()).isEqualTo(Phase.ENDED);
      assertThat(cancelled.waitingUntil()).isNull();
      assertThat(cancelled.lastOutcome()).isEqualTo("cancelled by user:ada: too expensive");
      // The run's result is the state; the update's answer also names the request it answers.
      assertThat(WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class))
          .isEqualTo(
              new SubscriptionState(
                  cancelled.subscription(),
                  cancelled.phase(),
                  cancelled.waitingUntil(),
                  cancelled.lastOutcome()));
      assertThat(cancelled.request().status()).isEqualTo(AppliedRequest.Status.APPLIED);

      RecordInput record = t.fake.records().get(1).input();
      assertThat(record.changeId()).isEqualTo("cancel");
      assertThat(record.event()).isEqualTo(HistoryEvent.SUBSCRIPTION_CANCELLED);
      assertThat(record.process()).isEqualTo(Process.API);
      assertThat(record.actor()).isEqualTo("user:ada");
      assertThat(record.detail()).isEqualTo("too expensive");
      assertThat(record.previous().version()).isEqualTo(1);
      assertThat(record.next()).isEqualTo(cancelled.subscription());
      assertThat(record.period().cycle()).isEqualTo(1);
      assertThat(record.period().dueDate()).isEqualTo(LocalDate.of(2028, 1, 15));
      assertThat(record.period().status()).isEqualTo(PeriodStatus.CANCELLED);
      assertThat(record.period().attempts()).isZero();
      assertThat(record.receipt()).isNull();
      assertAt(record.at(), "2028-01-01T00:00:00Z");

      assertThat(
              t.untyped("sub-bye")
                  .describe()
                  .getTypedSearchAttributes()
                  .get(BillingSearchAttributes.BILLING_STATUS))
          .isEqualTo("CANCELLED");
      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.reminders()).isEmpty();
      assertThat(t.fake.charges()).isEmpty();
      assertThat(t.fake.records()).hasSize(2);
    }
  }

  @Test
  void aSecondCancelIsRejectedByTheValidatorWhileTheFirstIsBeingRecorded() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-twice", ON_THE_15TH, "9.99"));
      workflow.created();
      t.fake.holdRecord("cancel");

      WorkflowUpdateHandle<SubscriptionState> first =
          WorkflowStub.fromTyped(workflow)
              .startUpdate(
                  "cancel",
                  WorkflowUpdateStage.ACCEPTED,
                  SubscriptionState.class,
                  new CancelRequest(null, null));
      t.fake.awaitHeldRecordStarted();
      assertThat(workflow.state().phase()).isEqualTo(Phase.CANCELLING);

      assertThatThrownBy(() -> workflow.cancel(new CancelRequest("again", "user:ada")))
          .isInstanceOf(WorkflowUpdateException.class)
          .cause()
          .isInstanceOf(ApplicationFailure.class)
          .satisfies(
              f -> {
                assertThat(((ApplicationFailure) f).getType())
                    .isEqualTo(UpdateRejections.TRANSITION_NOT_ALLOWED);
                assertThat(((ApplicationFailure) f).getOriginalMessage())
                    .isEqualTo("subscription is already cancelled");
              });

      t.fake.openRecord();
      SubscriptionState cancelled = first.getResult(10, TimeUnit.SECONDS);
      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.fake.records())
          .extracting(c -> c.input().changeId())
          .containsExactly("create", "cancel");
      assertThat(t.fake.records().get(1).input().actor()).as("no principal given").isEqualTo("api");
      assertThat(t.fake.records().get(1).input().detail()).isNull();
      // The rejected update left no trace in the history.
      List<io.temporal.api.history.v1.HistoryEvent> events =
          t.client.fetchHistory(BillingIds.workflowId("sub-twice")).getEvents();
      assertThat(t.count(events, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED))
          .isEqualTo(2);
    }
  }

  @Test
  void cancelDuringAChargeIsRecordedOnlyAfterTheChargeIs() throws Exception {
    // Starts on the due instant (reminder already past), so the charge is the first step.
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-15T00:00:00Z")) {
      t.fake.holdCharges();
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-mid", ON_THE_15TH, "9.99"));
      t.fake.awaitChargeStarted();
      assertThat(workflow.state().phase()).isEqualTo(Phase.CHARGING);

      WorkflowUpdateHandle<SubscriptionState> cancel =
          WorkflowStub.fromTyped(workflow)
              .startUpdate(
                  "cancel",
                  WorkflowUpdateStage.ACCEPTED,
                  SubscriptionState.class,
                  new CancelRequest("changed my mind", "user:ada"));
      t.fake.openCharges();
      SubscriptionState cancelled = cancel.getResult(10, TimeUnit.SECONDS);

      List<RecordInput> records = t.fake.records().stream().map(Call::input).toList();
      assertThat(records)
          .extracting(RecordInput::changeId)
          .containsExactly("create", "cycle-1/charge-1", "cancel");
      assertThat(records.get(1).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(records.get(2).previous()).isEqualTo(records.get(1).next());
      assertThat(records.get(2).period().cycle()).as("the period now waited for").isEqualTo(2);
      assertThat(records.get(2).period().dueDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(records.get(2).period().status()).isEqualTo(PeriodStatus.CANCELLED);
      assertThat(cancelled.subscription().version()).isEqualTo(3);
      assertThat(cancelled.subscription().lastPaymentAt())
          .isEqualTo(records.get(1).next().lastPaymentAt());

      t.runUntil("2028-04-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.reminders()).isEmpty();
    }
  }

  @Test
  void cancelWhileWaitingForThePaymentSkipsTheCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-wait", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-13T00:00:00Z");
      assertThat(workflow.state().phase()).isEqualTo(Phase.WAITING_FOR_PAYMENT);

      SubscriptionState cancelled = workflow.cancel(new CancelRequest("no longer needed", null));

      assertThat(cancelled.subscription().version()).isEqualTo(3);
      assertAt(cancelled.subscription().lastReminderAt(), "2028-01-12T00:00:00Z");
      assertThat(cancelled.subscription().nextPaymentDate()).isNull();
      assertThat(cancelled.lastOutcome()).isEqualTo("cancelled by api: no longer needed");
      t.runUntil("2028-02-01T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(1);
      assertThat(t.fake.charges()).isEmpty();
      RecordInput record = t.fake.records().get(1).input();
      assertThat(record.period().cycle()).isEqualTo(1);
      assertThat(record.period().status()).isEqualTo(PeriodStatus.CANCELLED);
    }
  }
}
