package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.subscription.SubscriptionRestart;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bank debit returned after its subscription's run ended (cancelled while the debit settled): the
 * return starts the workflow again from the record, which records the period unpaid (no dunning,
 * the subscription left CANCELLED) and ends; a run open after the end (a refund) records it too.
 * Cycle 1 is due 2028-01-15, a pending debit then, settled on the 17th.
 */
@Timeout(60)
class ReturnAfterEndTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static SubscriptionWorkflow stub(BillingTestEnvironment t, Subscription record) {
    return t.client.newWorkflowStub(
        SubscriptionWorkflow.class,
        SubscriptionStartOptions.of(
            record,
            TaskQueues.BILLING,
            null,
            WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
            WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
  }

  /** What the webhook endpoint does for a return with no run: signal-with-start from the record. */
  private static void startWith(BillingTestEnvironment t, PaymentEvent event) {
    t.startAfterEnd(record(t), periods(t), event);
  }

  private static List<Period> periods(BillingTestEnvironment t) {
    return List.of(t.fake.period("sub-ret", 1));
  }

  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  private static PaymentEvent event(String id, PaymentEvent.Type type, String at) {
    boolean returned = type == PaymentEvent.Type.CHARGE_RETURNED;
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        "sub-ret",
        1,
        "charge:sub-ret:1:1",
        "txn_sub-ret_1",
        returned ? "R01" : null,
        returned ? "Insufficient funds" : null,
        Instant.parse(at));
  }

  private static PaymentEvent returned() {
    return event("evt_returned", PaymentEvent.Type.CHARGE_RETURNED, "2028-01-19T00:00:00Z");
  }

  /** Cycle 1's debit settles after a cancellation; the settle-only run records it and ends. */
  private static SubscriptionWorkflow cancelledAndSettled(BillingTestEnvironment t) {
    t.fake.script(1, ChargeMode.PENDING);
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested("sub-ret", ON_THE_15TH, "9.99"));
    t.runUntil("2028-01-16T00:00:00Z");
    workflow.cancel(new CancelRequest("moving", null));
    t.runUntil("2028-01-17T00:00:00Z");
    workflow.paymentEvent(
        event("evt_settled", PaymentEvent.Type.CHARGE_SUCCEEDED, "2028-01-17T00:00:00Z"));
    WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
    assertThat(t.fake.period("sub-ret", 1).status()).isEqualTo(PeriodStatus.COMPLETED);
    return workflow;
  }

  private static void assertReturnRecorded(BillingTestEnvironment t) {
    List<RecordInput> period = periodRecords(t, 1);
    RecordInput recorded = period.get(period.size() - 1);
    assertThat(recorded.event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
    assertThat(recorded.process()).isEqualTo(Process.WEBHOOK);
    assertThat(recorded.period().status()).isEqualTo(PeriodStatus.ERROR);
    assertThat(recorded.period().amount()).isEqualTo(Money.parse("9.99", "USD"));
    assertThat(recorded.period().failureCode()).isEqualTo("R01");
    assertThat(recorded.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    assertThat(t.fake.charges()).as("no retry after the end").hasSize(1);
  }

  @Test
  void aReturnAfterTheRunEndedIsRecordedByARunStartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      cancelledAndSettled(t);
      t.env.sleep(Duration.ofDays(2));

      startWith(t, returned());

      assertReturnRecorded(t);
      assertThat(t.untyped("sub-ret").describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
      // Delivered again (a webhook retry): the record no longer shows the charge collected.
      assertThat(SubscriptionRestart.afterEnd(record(t), periods(t), returned(), t.now()))
          .isEmpty();
    }
  }

  @Test
  void aReturnOfAPartlyRefundedPeriodIsRecordedToo() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ret", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      workflow.paymentEvent(
          event("evt_settled", PaymentEvent.Type.CHARGE_SUCCEEDED, "2028-01-17T00:00:00Z"));
      t.runUntil("2028-01-18T00:00:00Z");
      workflow.refundPeriod(
          new RefundRequest(1, Money.parse("2.00", "USD"), "goodwill", "user:ops", "refund-1"));
      workflow.cancel(new CancelRequest("moving", null));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(t.fake.period("sub-ret", 1).status()).isEqualTo(PeriodStatus.REFUNDED);

      startWith(t, returned());

      assertReturnRecorded(t);
    }
  }

  @Test
  void aReturnThatReachesAnOpenRefundRunAfterTheEndIsRecorded() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      cancelledAndSettled(t);
      // A refund after the end whose outcome is unknown keeps its run open for its re-sends.
      t.fake.refundsUnanswered(1);
      Subscription record = record(t);
      SubscriptionWorkflow workflow = stub(t, record);
      RefundRequest refund =
          new RefundRequest(1, Money.parse("1.00", "USD"), null, "user:ops", "refund-late");
      WorkflowClient.startUpdateWithStart(
          workflow::refundPeriod,
          refund,
          UpdateOptions.newBuilder(SubscriptionState.class)
              .setUpdateId(refund.requestId())
              .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
              .build(),
          new WithStartWorkflowOperation<>(
              workflow::run, SubscriptionRestart.ended(record, periods(t), t.now())));

      workflow.paymentEvent(returned());
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::event)
          .contains(HistoryEvent.PAYMENT_RETURNED);
    }
  }

  @Test
  void onlyAnEndedSubscriptionIsStartedThisWayAndOnlyForMoneyItCollected() {
    Subscription billing = BillingTestEnvironment.requested("sub-ret", ON_THE_15TH, "9.99");
    assertThatThrownBy(() -> SubscriptionRestart.ended(billing, List.of(), Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not ended");
    Subscription ended = billing.withStatus(SubscriptionStatus.CANCELLED);
    Period unpaid =
        new Period(
            billing.accountId(),
            "sub-ret",
            1,
            ON_THE_15TH.dueDate(1),
            billing.price(),
            PeriodStatus.ERROR,
            1,
            null,
            "R01",
            null,
            Instant.EPOCH);
    assertThat(SubscriptionRestart.afterEnd(ended, List.of(unpaid), returned(), Instant.EPOCH))
        .isEmpty();
  }
}
