package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.subscription.SubscriptionRestart;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refund made in the gateway's dashboard, outside billing's calls, reaches the period through the
 * charge.refunded event: the period is REFUNDED with its running total, each refund is kept on the
 * period under the gateway's id (so the same refund reported again, by a redelivery, the replay of
 * missed events or reconciliation, is counted once), the history and a refund notice say so. Cycle
 * 1 is due 2028-01-15 and paid by card then.
 */
@Timeout(60)
class GatewayRefundTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  private static final String SUB = "sub-dash";
  private static final String TXN = "txn_sub-dash_1";

  static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  static PaymentEvent refunded(String eventId, String total, ChargeRefund... listed) {
    return new PaymentEvent(
        eventId,
        "sandbox",
        PaymentEvent.Type.CHARGE_REFUNDED,
        SUB,
        1,
        "charge:" + SUB + ":1:1",
        TXN,
        null,
        null,
        Instant.parse("2028-01-20T00:00:00Z"),
        usd(total),
        List.of(listed));
  }

  static ChargeRefund atGateway(String id, String amount) {
    return new ChargeRefund(id, usd(amount), null, Instant.parse("2028-01-19T10:00:00Z"));
  }

  private static SubscriptionWorkflow paid(BillingTestEnvironment t) {
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested(SUB, ON_THE_15TH, "9.99"));
    t.runUntil("2028-01-16T00:00:00Z");
    assertThat(t.fake.period(SUB, 1).status()).isEqualTo(PeriodStatus.COMPLETED);
    return workflow;
  }

  /** Lets the workflow act on what it was sent, until {@code done} holds of the stored period. */
  static void awaitPeriod(BillingTestEnvironment t, String sub, Predicate<Period> done) {
    for (int i = 0; i < 60 && !done.test(t.fake.period(sub, 1)); i++) {
      t.env.sleep(Duration.ofSeconds(1));
    }
    assertThat(t.fake.period(sub, 1)).matches(done);
  }

  private static List<RecordInput> refundsRecorded(BillingTestEnvironment t) {
    return periodRecords(t, 1).stream()
        .filter(r -> r.event() == HistoryEvent.PAYMENT_REFUNDED)
        .toList();
  }

  private static List<NotifyCustomerInput> refundNotices(BillingTestEnvironment t) {
    return t.fake.notices().stream()
        .map(Call::input)
        .filter(n -> n.kind() == NotifyCustomerInput.Kind.REFUND_ISSUED)
        .toList();
  }

  @Test
  void aDashboardRefundIsRecordedOnceHoweverOftenItIsReported() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);

      workflow.paymentEvent(refunded("evt_r1", "3.00", atGateway("re_dash1", "3.00")));
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.REFUNDED);
      // The webhook delivered again under the same id, then the same refund as reconciliation
      // reports it (another event id, the total only).
      workflow.paymentEvent(refunded("evt_r1", "3.00", atGateway("re_dash1", "3.00")));
      workflow.paymentEvent(refunded("reconciliation:refund:" + TXN + ":300", "3.00"));
      t.runUntil("2028-01-21T00:00:00Z");

      Period period = t.fake.period(SUB, 1);
      assertThat(period.refunded()).isEqualTo(usd("3.00"));
      assertThat(period.refunds())
          .extracting(PeriodRefund::refundId, PeriodRefund::amount, PeriodRefund::transactionId)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("re_dash1", usd("3.00"), TXN));
      List<RecordInput> recorded = refundsRecorded(t);
      assertThat(recorded).hasSize(1);
      assertThat(recorded.get(0).process()).isEqualTo(Process.WEBHOOK);
      assertThat(recorded.get(0).detail())
          .contains("refunded 3.00 USD of cycle 1 at the gateway")
          .contains("3.00 USD of 9.99 USD in all")
          .contains("re_dash1");
      assertThat(refundNotices(t))
          .singleElement()
          .satisfies(n -> assertThat(n.amount()).isEqualTo(usd("3.00")));

      // A second dashboard refund: the charge's total grows, the list names both.
      workflow.paymentEvent(
          refunded("evt_r2", "9.99", atGateway("re_dash1", "3.00"), atGateway("re_dash2", "6.99")));
      awaitPeriod(t, SUB, p -> p.refunded().equals(usd("9.99")));
      assertThat(t.fake.period(SUB, 1).refunds())
          .extracting(PeriodRefund::refundId)
          .containsExactly("re_dash1", "re_dash2");
      assertThat(refundsRecorded(t)).hasSize(2);
      assertThat(refundNotices(t)).hasSize(2);
      assertThat(t.fake.refunds()).as("billing sent no refund itself").isEmpty();
    }
  }

  @Test
  void aTotalWithoutTheRefundsListedIsRecordedUpToThatTotalOnly() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);

      workflow.paymentEvent(refunded("evt_t1", "9.99"));
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.REFUNDED);
      // The same refund listed later under its own id: the total already holds it.
      workflow.paymentEvent(refunded("evt_t2", "9.99", atGateway("re_full", "9.99")));
      t.runUntil("2028-01-21T00:00:00Z");

      Period period = t.fake.period(SUB, 1);
      assertThat(period.refunded()).isEqualTo(usd("9.99"));
      assertThat(period.refunds()).singleElement().satisfies(r -> assertThat(r.made()).isTrue());
      assertThat(refundsRecorded(t)).hasSize(1);
    }
  }

  @Test
  void billingsOwnRefundReportedByTheGatewayIsNotCountedAgain() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);
      workflow.refundPeriod(new RefundRequest(1, usd("2.00"), "goodwill", "user:ops", "req-1"));
      PeriodRefund ours = t.fake.period(SUB, 1).refunds().get(0);

      // Its charge.refunded, listing it with billing's key, and the total alone.
      workflow.paymentEvent(
          refunded(
              "evt_own",
              "2.00",
              new ChargeRefund(ours.refundId(), usd("2.00"), ours.idempotencyKey(), null)));
      workflow.paymentEvent(refunded("evt_own_total", "2.00"));
      t.runUntil("2028-01-21T00:00:00Z");

      assertThat(t.fake.period(SUB, 1).refunded()).isEqualTo(usd("2.00"));
      assertThat(t.fake.period(SUB, 1).refunds()).hasSize(1);
      assertThat(refundsRecorded(t)).hasSize(1);
    }
  }

  @Test
  void aTotalIsNotRecordedWhileARefundOfBillingsHasNoAnswer() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);
      // Billing's refund of 2.00 is made at the gateway, but no answer comes back yet.
      t.fake.refundsUnanswered(1);
      RefundRequest request = new RefundRequest(1, usd("2.00"), "goodwill", "user:ops", "req-2");
      CompletableFuture<SubscriptionState> answer =
          WorkflowClient.startUpdate(
                  workflow::refundPeriod,
                  request,
                  UpdateOptions.newBuilder(SubscriptionState.class)
                      .setUpdateId(request.requestId())
                      .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
                      .build())
              .getResultAsync();
      // The test server skips time only while the test sleeps, which the retried send needs; it
      // sleeps until the refund is recorded pending (its re-send timer armed a minute ahead), not
      // until the client sees the answer, which under load can take many more skipped seconds.
      while (t.fake.writes().stream().noneMatch(w -> w.event() == HistoryEvent.PAYMENT_PENDING)) {
        t.env.sleep(Duration.ofSeconds(1));
      }
      answer.get(30, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(t.fake.period(SUB, 1).refunds())
          .singleElement()
          .satisfies(r -> assertThat(r.made()).isFalse());

      // The gateway's total holds it: the difference may be billing's own refund.
      workflow.paymentEvent(refunded("evt_pending_total", "2.00"));
      t.env.sleep(Duration.ofSeconds(5));
      assertThat(t.fake.period(SUB, 1).refunded()).isNull();

      // The re-send gets the refund's answer; the total then has nothing left to record.
      t.runUntil("2028-01-21T00:00:00Z");
      assertThat(t.fake.period(SUB, 1).refunded()).isEqualTo(usd("2.00"));
      assertThat(t.fake.period(SUB, 1).refunds()).hasSize(1);
    }
  }

  @Test
  void aRefundAfterTheRunEndedStartsItFromTheRecordOnce() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);
      workflow.cancel(new CancelRequest("moving", null));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      PaymentEvent event = refunded("evt_late", "4.00", atGateway("re_late", "4.00"));

      startEnded(t, event);

      Period period = t.fake.period(SUB, 1);
      assertThat(period.status()).isEqualTo(PeriodStatus.REFUNDED);
      assertThat(period.refunded()).isEqualTo(usd("4.00"));
      RecordInput last = refundsRecorded(t).get(0);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.untyped(SUB).describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
      // Delivered again: the record holds it, nothing is started.
      assertThat(SubscriptionRestart.afterEnd(record(t), List.of(period), event, t.now()))
          .isEmpty();
    }
  }

  static Subscription record(BillingTestEnvironment t) {
    List<RecordInput> writes = t.fake.writes();
    return writes.get(writes.size() - 1).next();
  }

  /** As the webhook intake does with no run: signal-with-start from the record. */
  static void startEnded(BillingTestEnvironment t, PaymentEvent event) {
    Subscription record = record(t);
    t.startAfterEnd(record, List.of(t.fake.period(event.subscriptionId(), 1)), event);
  }
}
