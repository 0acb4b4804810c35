package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.activities.RefundResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WithStartWorkflowOperation;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refund is made once per request id whatever becomes of the run that took it: the period's
 * record keeps every refund key before it is sent, so a retry that reaches a new run (after the
 * subscription ended) or a run restarted from the record never sends it as a new refund, even once
 * the gateway has forgotten the key (24 hours). Cycle 1 is due 2028-01-15 and paid then.
 */
@Timeout(60)
class RefundAcrossRunsTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  /** What the API does for a refund of an ended subscription: update-with-start from the record. */
  private static SubscriptionState refundAfterEnd(
      BillingTestEnvironment t, Subscription record, RefundRequest request) {
    SubscriptionWorkflow workflow =
        t.client.newWorkflowStub(
            SubscriptionWorkflow.class,
            WorkflowOptions.newBuilder()
                .setWorkflowId(BillingIds.workflowId(record.subscriptionId()))
                .setTaskQueue(TaskQueues.BILLING)
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                .setWorkflowIdConflictPolicy(
                    WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
                .build());
    SubscriptionState answer =
        WorkflowClient.executeUpdateWithStart(
            workflow::refundPeriod,
            request,
            UpdateOptions.newBuilder(SubscriptionState.class)
                .setUpdateId(request.requestId())
                .setWaitForStage(WorkflowUpdateStage.COMPLETED)
                .build(),
            new WithStartWorkflowOperation<>(workflow::run, new SubscriptionInput(record, true)));
    // Polled in small steps: awaiting the result would let the test server skip years ahead.
    while (t.untyped(record.subscriptionId()).describe().getStatus()
        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      t.env.sleep(Duration.ofSeconds(1));
    }
    return answer;
  }

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  /** The subscription as the record holds it now (what the API and reconciliation read). */
  private static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  @Test
  void aRefundRetriedAfterItsRunEndedIsAnsweredFromTheRecordAndNeverRefundedTwice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ae", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.cancel(new CancelRequest("moving", null));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      RefundRequest refund = new RefundRequest(1, usd("2.00"), "goodwill", "user:ops", "refund-ae");

      refundAfterEnd(t, record(t), refund);
      Instant sent = t.fake.refunds().get(0).startedAt();
      SubscriptionState withinADay = refundAfterEnd(t, record(t), refund);
      assertThat(t.now()).isBefore(sent.plus(Duration.ofHours(24)));
      t.env.sleep(Duration.ofHours(25)); // the gateway has forgotten the key
      SubscriptionState daysLater = refundAfterEnd(t, record(t), refund);

      String key = BillingIds.refundKey("sub-ae", 1, "refund-ae");
      assertThat(t.fake.everyRefund())
          .extracting(RefundResult::refundId)
          .containsExactly("re_" + key);
      assertThat(t.fake.period("sub-ae", 1).refunded()).isEqualTo(usd("2.00"));
      assertThat(events(t, HistoryEvent.PAYMENT_REFUNDED)).hasSize(1);
      assertThat(List.of(withinADay.lastOutcome(), daysLater.lastOutcome()))
          .allSatisfy(
              outcome ->
                  assertThat(outcome)
                      .isEqualTo(
                          "refund re_"
                              + key
                              + " of 2.00 USD for period 1 was made for"
                              + " request refund-ae already; not sent again"));
      assertThat(daysLater.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void aRefundWithoutAnAnswerIsStillResolvedByARunRestartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-rl", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      t.fake.refundsUnanswered(1);
      SubscriptionWorkflow running = t.existing("sub-rl");
      RefundRequest refund = new RefundRequest(1, usd("5.00"), null, "user:ops", "refund-rl");
      WorkflowClient.startUpdate(
          running::refundPeriod,
          refund,
          UpdateOptions.newBuilder(SubscriptionState.class)
              .setUpdateId(refund.requestId())
              .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
              .build());
      while (events(t, HistoryEvent.PAYMENT_PENDING).stream()
          .noneMatch(e -> e.changeId().startsWith("refund-pending"))) {
        t.env.sleep(Duration.ofSeconds(20));
      }
      // The run is lost before its timer (a minute) sends the key again.
      t.untyped("sub-rl").terminate("lost");

      t.restart(record(t), List.of(t.fake.period("sub-rl", 1)));
      t.runUntil("2028-01-20T01:00:00Z");

      String key = BillingIds.refundKey("sub-rl", 1, "refund-rl");
      assertThat(t.fake.everyRefund())
          .extracting(RefundResult::refundId)
          .containsExactly("re_" + key);
      Period period = t.fake.period("sub-rl", 1);
      assertThat(period.refunded()).isEqualTo(usd("5.00"));
      assertThat(period.refund(key).refundId()).isEqualTo("re_" + key);
      assertThat(events(t, HistoryEvent.PAYMENT_REFUNDED)).hasSize(1);
    }
  }

  @Test
  void anUpgradesRefundAtCancellationIsKeptOnThePeriodRecordWhereTheLedgerReadsIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ur", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MAX",
              usd("19.99"),
              PlanChangeRequest.Effective.NOW,
              "user:ada",
              "upgrade-u")); // 8.39 for Jan 20 - Feb 14 (26 days)
      t.runUntil("2028-01-25T10:00:00Z");

      workflow.cancel(new CancelRequest(null, "user:ada", false, true, "cancel-u"));

      Period period = t.fake.period("sub-ur", 1);
      assertThat(period.refunds())
          .extracting(r -> r.transactionId(), r -> r.amount(), r -> r.refundId())
          .containsExactlyInAnyOrder(
              tuple(
                  "txn_sub-ur_1",
                  usd("6.44"),
                  "re_" + BillingIds.refundKey("sub-ur", 1, "cancel-u")),
              tuple(
                  "txn_sub-ur_1_0",
                  usd("6.45"),
                  "re_" + BillingIds.refundKey("sub-ur", 1, "cancel-u#txn_sub-ur_1_0")));
      // The period's own total is its own charge's: the upgrade's refund is not counted in it.
      assertThat(period.refunded()).isEqualTo(usd("6.44"));
    }
  }
}
