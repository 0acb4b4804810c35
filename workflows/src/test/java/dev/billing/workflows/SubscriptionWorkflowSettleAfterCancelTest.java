package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.receiptsOf;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.subscription.SubscriptionWorkflowImpl;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.WorkflowReplayer;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cancellation while money is still moving: the run stays open, settle-only, until the pending or
 * unanswered charge is known, then ends. The subscription stays CANCELLED throughout.
 */
@Timeout(60)
class SubscriptionWorkflowSettleAfterCancelTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void cancelReturnsAtOnceAndASettlementEventStillWritesTheReceipt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-late", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      SubscriptionState cancelled = workflow.cancel(new CancelRequest("moving away", "user:ada"));

      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(cancelled.subscription().nextPaymentDate()).isNull();
      assertThat(cancelled.subscription().nextReminderDate()).isNull();
      assertThat(t.now())
          .as("the update did not wait for the settlement")
          .isBefore(Instant.parse("2028-01-17T00:00:00Z"));
      assertThat(t.fake.lookups()).isEmpty();
      SubscriptionState waiting = workflow.state();
      assertThat(waiting.phase()).isEqualTo(Phase.WAITING_FOR_SETTLEMENT);
      assertAt(waiting.waitingUntil(), "2028-01-20T00:00:00Z");
      assertThat(statusOf(t, "sub-late"))
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);

      t.runUntil("2028-01-17T00:00:00Z");
      workflow.paymentEvent(
          event("evt_s", Type.CHARGE_SUCCEEDED, "charge:sub-late:1:1", "2028-01-17T00:00:00Z"));
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/settled");
      RecordInput settled = period.get(1);
      assertThat(settled.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(settled.process()).isEqualTo(Process.WEBHOOK);
      assertThat(settled.period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(settled.receipt().transactionId()).isEqualTo("txn_sub-late_1");
      assertThat(settled.receipt().processedAt()).isEqualTo(Instant.parse("2028-01-17T00:00:00Z"));
      assertThat(settled.previous().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(settled.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(settled.next().nextPaymentDate()).isNull();
      assertThat(settled.next().version()).isEqualTo(cancelled.subscription().version() + 1);
      assertThat(receiptsOf(t, 1)).hasSize(1);
      assertThat(t.fake.records())
          .extracting(c -> c.input().changeId())
          .containsExactly("create", "cycle-1/charge-1", "cancel", "cycle-1/charge-1/settled");
      assertThat(ended.phase()).isEqualTo(Phase.ENDED);
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(statusOf(t, "sub-late"))
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
      assertThat(t.fake.lookups()).isEmpty();
      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.reminders()).hasSize(1);
      // The settle-only commands replay deterministically (the marker of the new change id
      // included).
      assertThatCode(
              () ->
                  WorkflowReplayer.replayWorkflowExecution(
                      t.client.fetchHistory(BillingIds.workflowId("sub-late")),
                      SubscriptionWorkflowImpl.class))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void withoutAnEventTheGatewayIsAskedOnTheSettlementTimeout() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-asked", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      workflow.cancel(new CancelRequest(null, null));
      t.fake.gatewaySays(
          "charge:sub-asked:1:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_sub-asked_1",
              Instant.parse("2028-01-18T09:30:00Z"),
              null,
              null));

      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-asked:1:1");
      assertAt(t.fake.lookups().get(0).startedAt(), "2028-01-20T00:00:00Z");
      RecordInput settled = periodRecords(t, 1).get(1);
      assertThat(settled.changeId()).isEqualTo("cycle-1/charge-1/settled");
      assertThat(settled.process()).isEqualTo(Process.RECONCILIATION);
      assertThat(settled.receipt().processedAt()).isEqualTo(Instant.parse("2028-01-18T09:30:00Z"));
      assertThat(settled.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(receiptsOf(t, 1)).hasSize(1);
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(ended.subscription().lastPaymentAt())
          .isEqualTo(Instant.parse("2028-01-18T09:30:00Z"));
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  @Test
  void aFailedSettlementIsRecordedErrorWithoutRetryOrNotice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-nsf", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      workflow.cancel(new CancelRequest(null, null));
      t.runUntil("2028-01-17T12:00:00Z");

      workflow.paymentEvent(
          new PaymentEvent(
              "evt_f",
              "sandbox",
              Type.CHARGE_FAILED,
              "sub-nsf",
              1,
              "charge:sub-nsf:1:1",
              "txn_sub-nsf_1",
              "R01",
              "Insufficient funds",
              Instant.parse("2028-01-17T12:00:00Z")));
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/failed");
      RecordInput failed = period.get(1);
      assertThat(failed.event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);
      assertThat(failed.process()).isEqualTo(Process.WEBHOOK);
      assertThat(failed.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(failed.period().failureCode()).isEqualTo("R01");
      assertThat(failed.receipt()).isNull();
      assertThat(failed.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(failed.detail())
          .isEqualTo(
              "payment failed: R01 (Insufficient funds) [CHARGE_FAILED evt_f]; subscription cancelled: no retry");
      assertAt(failed.at(), "2028-01-17T12:00:00Z");
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.fake.charges()).as("no retry").hasSize(1);
      assertThat(t.fake.policyCalls()).as("no dunning").isEmpty();
      assertThat(t.fake.notices()).as("no notice").isEmpty();
      assertThat(t.fake.lookups()).isEmpty();
      assertThat(receiptsOf(t, 1)).isEmpty();
    }
  }

  @Test
  void anUnansweredChargeIsLookedUpNotResentAfterACancellation() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-dark", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");
      assertThat(periodRecords(t, 1).get(0).event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);

      SubscriptionState cancelled = workflow.cancel(new CancelRequest(null, null));
      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      t.fake.lookupsDown(false);
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      assertThat(t.fake.charges())
          .as("the key is not sent again after the cancellation")
          .allSatisfy(
              c -> assertThat(c.startedAt()).isBefore(Instant.parse("2028-01-15T12:00:00Z")));
      assertAt(
          t.fake.lookups().get(t.fake.lookups().size() - 1).startedAt(), "2028-01-20T12:00:00Z");
      RecordInput settled = periodRecords(t, 1).get(1);
      assertThat(settled.changeId()).isEqualTo("cycle-1/charge-1/settled");
      assertThat(settled.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(settled.receipt().transactionId()).isEqualTo("txn_sub-dark_1");
      assertThat(settled.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(periodRecords(t, 1)).hasSize(2);
    }
  }

  @Test
  void aCancellationWithNothingSettlingStillEndsAtOnce() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-paid", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");

      SubscriptionState cancelled = workflow.cancel(new CancelRequest(null, null));

      assertThat(cancelled.phase()).isEqualTo(Phase.ENDED);
      assertThat(WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class).phase())
          .isEqualTo(Phase.ENDED);
      assertThat(t.fake.lookups()).isEmpty();
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  private static WorkflowExecutionStatus statusOf(BillingTestEnvironment t, String subscriptionId) {
    return t.untyped(subscriptionId).describe().getStatus();
  }

  private static PaymentEvent event(String id, Type type, String key, String at) {
    String subscriptionId = key.split(":")[1];
    long cycle = Long.parseLong(key.split(":")[2]);
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        subscriptionId,
        cycle,
        key,
        "txn_" + subscriptionId + "_" + cycle,
        null,
        null,
        Instant.parse(at));
  }
}
