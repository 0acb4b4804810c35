package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PaymentEvent;
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
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bank debit returned after its subscription's run ended (cancelled while the debit settled): the
 * return starts the workflow again from the record, which records the period unpaid (no dunning,
 * the subscription left CANCELLED) and ends. Cycle 1 is due 2028-01-15, a pending debit then.
 */
@Timeout(60)
class ReturnAfterEndTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  /** What the webhook endpoint does for a return with no run: signal-with-start from the record. */
  private static void startWith(BillingTestEnvironment t, PaymentEvent event) {
    Subscription record = record(t);
    SubscriptionInput input =
        SubscriptionRestart.afterEnd(
            record, List.of(t.fake.period(record.subscriptionId(), 1)), event, t.now());
    SubscriptionWorkflow workflow =
        t.client.newWorkflowStub(
            SubscriptionWorkflow.class,
            SubscriptionStartOptions.of(
                record,
                TaskQueues.BILLING,
                null,
                WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
                WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING));
    BatchRequest start = t.client.newSignalWithStartRequest();
    start.add(workflow::run, input);
    start.add(workflow::paymentEvent, event);
    t.client.signalWithStart(start);
    WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
  }

  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  private static PaymentEvent returned(String id, String at) {
    return new PaymentEvent(
        id,
        "sandbox",
        PaymentEvent.Type.CHARGE_RETURNED,
        "sub-ret",
        1,
        "charge:sub-ret:1:1",
        "txn_sub-ret_1",
        "R01",
        "Insufficient funds",
        Instant.parse(at));
  }

  @Test
  void aReturnAfterTheRunEndedIsRecordedByARunStartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ret", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      workflow.cancel(new CancelRequest("moving", null));
      t.runUntil("2028-01-17T00:00:00Z");
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_settled",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-ret",
              1,
              "charge:sub-ret:1:1",
              "txn_sub-ret_1",
              null,
              null,
              Instant.parse("2028-01-17T00:00:00Z")));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(t.fake.period("sub-ret", 1).status()).isEqualTo(PeriodStatus.COMPLETED);
      t.env.sleep(Duration.ofDays(2));

      startWith(t, returned("evt_returned", "2028-01-19T00:00:00Z"));

      RecordInput recorded = periodRecords(t, 1).get(periodRecords(t, 1).size() - 1);
      assertThat(recorded.event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(recorded.process()).isEqualTo(Process.WEBHOOK);
      assertThat(recorded.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(recorded.period().failureCode()).isEqualTo("R01");
      assertThat(recorded.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.fake.period("sub-ret", 1).status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(t.fake.charges()).as("no retry after the end").hasSize(1);
      assertThat(t.untyped("sub-ret").describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);

      // Delivered again (a webhook retry): the record no longer shows it collected.
      int writes = t.fake.writes().size();
      startWith(t, returned("evt_returned", "2028-01-19T00:00:00Z"));
      assertThat(t.fake.writes()).hasSize(writes);
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  @Test
  void onlyAnEndedSubscriptionIsStartedThisWay() {
    Subscription billing = BillingTestEnvironment.requested("sub-live", ON_THE_15TH, "9.99");
    assertThat(billing.status()).isNotEqualTo(SubscriptionStatus.CANCELLED);
    assertThatThrownBy(
            () ->
                SubscriptionRestart.afterEnd(
                    billing, List.of(), returned("evt_x", "2028-01-19T00:00:00Z"), Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not ended");
  }
}
