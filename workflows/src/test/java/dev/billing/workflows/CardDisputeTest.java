package dev.billing.workflows;

import static dev.billing.workflows.GatewayRefundTest.awaitPeriod;
import static dev.billing.workflows.GatewayRefundTest.startEnded;
import static dev.billing.workflows.GatewayRefundTest.usd;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import io.temporal.client.WorkflowStub;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A card dispute (chargeback) of a collected period: DISPUTED while it is open; won, collected
 * again; lost, the money went back as with a returned bank debit (PAYMENT_RETURNED: owed again and
 * dunned, or closed unpaid after the end). Cycle 1 is due 2028-01-15 and paid by card then.
 */
@Timeout(60)
class CardDisputeTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  private static final String SUB = "sub-dispute";

  static PaymentEvent event(String id, PaymentEvent.Type type, String code, String at) {
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        SUB,
        1,
        "charge:" + SUB + ":1:1",
        "txn_" + SUB + "_1",
        code,
        code == null ? null : "disputed: " + code,
        Instant.parse(at),
        usd("9.99"),
        List.of());
  }

  static PaymentEvent disputed() {
    return event("evt_dp", PaymentEvent.Type.CHARGE_DISPUTED, "fraudulent", "2028-01-20T00:00:00Z");
  }

  static PaymentEvent lost() {
    return event(
        "evt_lost", PaymentEvent.Type.CHARGE_RETURNED, "dispute_lost", "2028-02-01T00:00:00Z");
  }

  private static SubscriptionWorkflow paid(BillingTestEnvironment t) {
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested(SUB, ON_THE_15TH, "9.99"));
    t.runUntil("2028-01-16T00:00:00Z");
    return workflow;
  }

  private static List<HistoryEvent> recorded(BillingTestEnvironment t) {
    return periodRecords(t, 1).stream().map(RecordInput::event).toList();
  }

  @Test
  void aWonDisputeCollectsThePeriodAgain() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);

      workflow.paymentEvent(disputed());
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.DISPUTED);
      assertThat(t.fake.period(SUB, 1).failureCode()).isEqualTo("fraudulent");
      workflow.paymentEvent(disputed()); // redelivered: nothing more
      workflow.paymentEvent(
          event("evt_won", PaymentEvent.Type.DISPUTE_WON, null, "2028-01-30T00:00:00Z"));
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.COMPLETED);

      assertThat(recorded(t))
          .containsSubsequence(
              HistoryEvent.PAYMENT_SUCCEEDED,
              HistoryEvent.PAYMENT_DISPUTED,
              HistoryEvent.DISPUTE_WON)
          .containsOnlyOnce(HistoryEvent.PAYMENT_DISPUTED);
      assertThat(t.fake.period(SUB, 1).failureCode()).isNull();
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  @Test
  void aLostDisputeIsAReturnedPaymentOwedAgain() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);
      workflow.paymentEvent(disputed());
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.DISPUTED);

      workflow.paymentEvent(lost());
      awaitPeriod(t, SUB, p -> p.status() == PeriodStatus.ERROR);

      List<RecordInput> period = periodRecords(t, 1);
      RecordInput returned = period.get(period.size() - 1);
      assertThat(returned.event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(returned.period().amount()).isEqualTo(usd("9.99"));
      assertThat(returned.period().failureCode()).isEqualTo("dispute_lost");
      assertThat(returned.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
    }
  }

  @Test
  void aDisputeAndItsLossAfterTheEndAreRecordedByRunsStartedFromTheRecord() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = paid(t);
      workflow.cancel(new CancelRequest("moving", null));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      startEnded(t, disputed());
      assertThat(t.fake.period(SUB, 1).status()).isEqualTo(PeriodStatus.DISPUTED);
      startEnded(t, lost());

      RecordInput last = periodRecords(t, 1).get(periodRecords(t, 1).size() - 1);
      assertThat(last.event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(last.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(t.fake.charges()).as("nothing charged after the end").hasSize(1);
    }
  }
}
