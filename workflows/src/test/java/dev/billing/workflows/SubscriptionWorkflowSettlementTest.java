package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.noticeInputs;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.receiptsOf;
import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unknown outcomes, bank debits that settle later, returns, and duplicate or out-of-order events.
 */
@Timeout(60)
class SubscriptionWorkflowSettlementTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void noAnswerButTheGatewayChargedIsPaidWithoutASecondCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requested("sub-lost", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-10T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsOnly("charge:sub-lost:1:1");
      assertThat(t.fake.charges()).extracting(Call::attempt).containsExactly(1, 2, 3, 4, 5, 6);
      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-lost:1:1");
      assertAt(t.fake.lookups().get(0).startedAt(), "2028-01-15T00:01:02Z");
      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period).hasSize(1);
      assertThat(period.get(0).changeId()).isEqualTo("cycle-1/charge-1");
      assertThat(period.get(0).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(0).receipt().transactionId()).isEqualTo("txn_sub-lost_1");
      assertThat(period.get(0).receipt().processedAt())
          .isEqualTo(t.fake.charges().get(0).startedAt());
      assertThat(period.get(0).next().cycle()).isEqualTo(2);
      assertThat(t.fake.succeededCharges()).containsOnlyKeys("charge:sub-lost:1:1");
      assertThat(t.fake.policyCalls()).isEmpty();
      assertThat(t.fake.notices()).isEmpty();
    }
  }

  @Test
  void noAnswerAndNoChargeFoundADayLaterSendsTheNextKeyNeverTheSameOneAgain() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.UNAVAILABLE);
      t.start(BillingTestEnvironment.requested("sub-503", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");
      t.fake.script(1, ChargeMode.OK); // the gateway is back

      t.runUntil("2028-01-20T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .as("NOT_FOUND a day after the send is proof: :1 is never sent again")
          .containsExactly(
              "charge:sub-503:1:1",
              "charge:sub-503:1:1",
              "charge:sub-503:1:1",
              "charge:sub-503:1:1",
              "charge:sub-503:1:1",
              "charge:sub-503:1:1",
              "charge:sub-503:1:2");
      assertAt(t.fake.charges().get(6).startedAt(), "2028-01-16T00:00:00Z");
      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-503:1:1", "charge:sub-503:1:1");
      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2");
      assertThat(period.get(0).period().failureCode()).isEqualTo("gateway_unavailable");
      assertThat(period.get(0).detail())
          .isEqualTo(
              "payment failed: gateway_unavailable (no answer from the"
                  + " gateway: gateway answered 503) [lookup: the gateway has no charge for charge:sub-503:1:1 yet;"
                  + " outcome unknown, asked again before the next attempt]; next retry 2028-01-16");
      assertThat(period.get(1).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(1).process()).isEqualTo(Process.RETRY);
      assertThat(t.fake.succeededCharges()).containsOnlyKeys("charge:sub-503:1:2");
      // The outcome was unknown, not a failure: the customer is not told their payment failed.
      assertThat(t.fake.notices()).isEmpty();
    }
  }

  @Test
  void chargedWhileTheGatewayCannotBeAskedNothingIsSentUntilItAnswersOneChargeOneReceipt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      t.start(BillingTestEnvironment.requested("sub-lag", ON_THE_15TH, "9.99"));

      // Two retry dates pass with the gateway unable to say what the key did: days after the
      // gateway forgot the key, so a re-sent key would be a new charge.
      t.runUntil("2028-01-19T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsOnly("charge:sub-lag:1:1");
      assertThat(t.fake.charges())
          .allSatisfy(
              c -> assertThat(c.startedAt()).isBefore(Instant.parse("2028-01-16T00:00:00Z")));

      t.fake.lookupsDown(false);
      t.runUntil("2028-01-25T00:00:00Z");

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/settled");
      assertThat(period.get(1).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(1).receipt().transactionId()).isEqualTo("txn_sub-lag_1");
      assertThat(period.get(1).next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(receiptsOf(t, 1)).hasSize(1);
      assertThat(t.fake.successfulCharges()).hasSize(1);
    }
  }

  @Test
  void aSuccessEventForAnEarlierAttemptKeyCollectsThePeriodAndALaterOneIsFlagged() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-early", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-early:1:1", "charge:sub-early:1:2");

      // The gateway corrects itself: the declined attempt holds the money after all.
      t.fake.gatewaySays(
          "charge:sub-early:1:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_sub-early_1",
              Instant.parse("2028-01-15T00:00:00Z"),
              null,
              null));
      workflow.paymentEvent(
          event("evt_late", Type.CHARGE_SUCCEEDED, "charge:sub-early:1:1", "2028-01-17T00:00:00Z"));
      t.runUntil("2028-01-25T00:00:00Z");

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2", "cycle-1/charge-1/settled");
      assertThat(period.get(2).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(2).process()).isEqualTo(Process.WEBHOOK);
      assertThat(period.get(2).period().attempts()).isEqualTo(1);
      assertThat(period.get(2).receipt().transactionId()).isEqualTo("txn_sub-early_1");
      assertThat(t.fake.charges()).as("no retry after it was collected").hasSize(2);

      workflow.paymentEvent(
          event(
              "evt_other", Type.CHARGE_SUCCEEDED, "charge:sub-early:1:2", "2028-01-25T00:00:00Z"));
      t.runUntil("2028-01-26T00:00:00Z");
      assertThat(workflow.state().lastOutcome())
          .isEqualTo(
              "possible double charge: CHARGE_SUCCEEDED evt_other"
                  + " (charge:sub-early:1:2, txn_sub-early_1) succeeded for a period that is not open");
      assertThat(periodRecords(t, 1)).hasSize(3);
      assertThat(receiptsOf(t, 1)).hasSize(1);
    }
  }

  @Test
  void aReturnDeliveredWhileTheSettlementIsBeingRecordedStillReopensThePeriod() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-gap", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");

      t.fake.holdRecord("cycle-1/charge-1/settled");
      workflow.paymentEvent(
          event("evt_s", Type.CHARGE_SUCCEEDED, "charge:sub-gap:1:1", "2028-01-17T00:00:00Z"));
      t.fake.awaitHeldRecordStarted();
      workflow.paymentEvent(
          event("evt_r", Type.CHARGE_RETURNED, "charge:sub-gap:1:1", "2028-01-17T00:00:00Z"));
      t.fake.openRecord();
      t.runUntil("2028-01-25T00:00:00Z");

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly(
              "cycle-1/charge-1",
              "cycle-1/charge-1/settled",
              "cycle-1/charge-1/returned",
              "cycle-1/charge-2");
      assertThat(period.get(2).event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-gap:1:1", "charge:sub-gap:1:2");
      assertAt(t.fake.charges().get(1).startedAt(), "2028-01-18T00:00:00Z");
    }
  }

  @Test
  void whenTheLookupFailsTooTheNextAttemptAsksAgainFirstAndNeverChargesTwice() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-dark", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");

      RecordInput unknown = periodRecords(t, 1).get(0);
      assertThat(unknown.event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);
      assertThat(unknown.detail()).contains("[lookup failed: outcome unknown]");
      assertThat(workflow.state().phase()).isEqualTo(Phase.WAITING_FOR_RETRY);

      t.fake.lookupsDown(false);
      t.runUntil("2028-01-20T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsOnly("charge:sub-dark:1:1");
      Call<?> asked = t.fake.lookups().get(t.fake.lookups().size() - 1);
      assertAt(asked.startedAt(), "2028-01-16T00:00:00Z");
      RecordInput paid = periodRecords(t, 1).get(1);
      assertThat(paid.changeId()).isEqualTo("cycle-1/charge-1/settled");
      assertThat(paid.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(paid.process()).isEqualTo(Process.INITIAL);
      assertThat(paid.receipt().transactionId()).isEqualTo("txn_sub-dark_1");
      assertThat(paid.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(periodRecords(t, 1)).hasSize(2);
      assertThat(t.fake.succeededCharges()).containsOnlyKeys("charge:sub-dark:1:1");
    }
  }

  @Test
  void bankDebitSettledBySignal() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ach", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");

      RecordInput pending = periodRecords(t, 1).get(0);
      assertThat(pending.changeId()).isEqualTo("cycle-1/charge-1");
      assertThat(pending.event()).isEqualTo(HistoryEvent.PAYMENT_PENDING);
      assertThat(pending.process()).isEqualTo(Process.INITIAL);
      assertThat(pending.period().status()).isEqualTo(PeriodStatus.PENDING_SETTLEMENT);
      assertThat(pending.period().transactionId())
          .as("a restart follows it by this id")
          .isEqualTo("txn_sub-ach_1");
      assertThat(pending.receipt()).isNull();
      assertThat(pending.detail())
          .isEqualTo("charge of 9.99 USD accepted, settling: transaction txn_sub-ach_1");
      assertThat(pending.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(pending.next().cycle()).isEqualTo(2);
      assertThat(pending.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      SubscriptionState waiting = workflow.state();
      assertThat(waiting.phase()).isEqualTo(Phase.WAITING_FOR_SETTLEMENT);
      assertAt(waiting.waitingUntil(), "2028-01-20T00:00:00Z");

      t.runUntil("2028-01-18T00:00:00Z");
      workflow.paymentEvent(
          event("evt_1", Type.CHARGE_SUCCEEDED, "charge:sub-ach:1:1", "2028-01-18T00:00:00Z"));
      t.runUntil("2028-01-25T00:00:00Z");

      RecordInput settled = periodRecords(t, 1).get(1);
      assertThat(settled.changeId()).isEqualTo("cycle-1/charge-1/settled");
      assertThat(settled.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(settled.process()).isEqualTo(Process.WEBHOOK);
      assertThat(settled.period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(settled.period().transactionId()).isEqualTo("txn_sub-ach_1");
      assertThat(settled.receipt().processedAt()).isEqualTo(Instant.parse("2028-01-18T00:00:00Z"));
      assertThat(settled.next().lastPaymentAt()).isEqualTo(Instant.parse("2028-01-18T00:00:00Z"));
      assertAt(settled.at(), "2028-01-18T00:00:00Z");
      assertThat(t.fake.lookups()).as("the event came before the timeout").isEmpty();
      assertThat(workflow.state().phase()).isEqualTo(Phase.WAITING_FOR_REMINDER);
    }
  }

  @Test
  void bankDebitWithoutEventIsLookedUpAfterTheTimeout() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      t.start(BillingTestEnvironment.requested("sub-quiet", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      t.fake.gatewaySays(
          "charge:sub-quiet:1:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_sub-quiet_1",
              Instant.parse("2028-01-17T09:30:00Z"),
              null,
              null));

      t.runUntil("2028-01-25T00:00:00Z");

      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-quiet:1:1");
      assertAt(t.fake.lookups().get(0).startedAt(), "2028-01-20T00:00:00Z");
      RecordInput settled = periodRecords(t, 1).get(1);
      assertThat(settled.changeId()).isEqualTo("cycle-1/charge-1/settled");
      assertThat(settled.process()).isEqualTo(Process.RECONCILIATION);
      assertThat(settled.receipt().processedAt()).isEqualTo(Instant.parse("2028-01-17T09:30:00Z"));
      assertThat(receiptsOf(t, 1)).hasSize(1);
    }
  }

  @Test
  void bankDebitThatFailsEntersDunningFromItsDueDate() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-nsf", ON_THE_15TH, "9.99"));
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
      t.runUntil("2028-01-19T00:00:00Z");

      RecordInput failed = periodRecords(t, 1).get(1);
      assertThat(failed.changeId()).isEqualTo("cycle-1/charge-1/failed");
      assertThat(failed.event()).isEqualTo(HistoryEvent.PAYMENT_FAILED);
      assertThat(failed.process()).isEqualTo(Process.WEBHOOK);
      assertThat(failed.period().failureCode()).isEqualTo("R01");
      assertThat(failed.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      // Jan 16 passed while the debit was settling: not lost, the retry is at once.
      assertThat(failed.detail())
          .isEqualTo(
              "payment failed: R01 (Insufficient funds) [CHARGE_FAILED evt_f]; next retry 2028-01-17");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-nsf:1:1", "charge:sub-nsf:1:2");
      assertAt(t.fake.charges().get(1).startedAt(), "2028-01-17T12:00:00Z");
      assertThat(periodRecords(t, 1).get(2).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
    }
  }

  @Test
  void aSettlementDeliveredWhileItsChargeIsStillRunningIsNotLost() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-fast", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");

      t.fake.holdCharges();
      io.temporal.client.WorkflowStub.fromTyped(workflow)
          .startUpdate(
              "changePaymentMethod",
              io.temporal.client.WorkflowUpdateStage.ACCEPTED,
              SubscriptionState.class,
              new PaymentMethodChange(
                  new dev.billing.domain.PaymentMethod("pm_sandbox_bankDebit", "Bank •••• 6789"),
                  null));
      t.fake.awaitChargeStarted();
      // The webhook beats the charge call's own answer: attempt 2 is not known to be open yet.
      workflow.paymentEvent(
          event("evt_fast", Type.CHARGE_SUCCEEDED, "charge:sub-fast:1:2", "2028-01-15T12:00:00Z"));
      t.fake.openCharges();
      t.runUntil("2028-01-17T00:00:00Z");

      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2", "cycle-1/charge-2/settled");
      assertThat(receiptsOf(t, 1)).hasSize(1);
      assertThat(t.fake.lookups()).isEmpty();
    }
  }

  @Test
  void aBankDebitFoundFailedAfterEveryRetryDateStillGetsOneRetry() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING, ChargeMode.SOFT_DECLINE);
      t.fake.lookupsDown(true); // no lookup answer: only the late event tells
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-slow", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-25T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(1);

      workflow.paymentEvent(
          new PaymentEvent(
              "evt_late",
              "sandbox",
              Type.CHARGE_FAILED,
              "sub-slow",
              1,
              "charge:sub-slow:1:1",
              "txn_sub-slow_1",
              "R01",
              "Insufficient funds",
              Instant.parse("2028-01-25T00:00:00Z")));
      t.runUntil("2028-02-01T00:00:00Z");

      // Days 1, 3, 5 and 7 all passed while it settled: one retry at once, then none is left.
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-slow:1:1", "charge:sub-slow:1:2");
      assertAt(t.fake.charges().get(1).startedAt(), "2028-01-25T00:00:00Z");
      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/failed", "cycle-1/charge-2");
      assertThat(period.get(1).detail())
          .isEqualTo(
              "payment failed: R01 (Insufficient funds) [CHARGE_FAILED evt_late]; next retry 2028-01-25");
      assertThat(period.get(2).event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
    }
  }

  @Test
  void aReturnAfterContinueAsNewReopensThePeriodAndDunsItFromTheReturnDate() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-back", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T12:00:00Z");

      t.existing("sub-back")
          .paymentEvent(
              new PaymentEvent(
                  "evt_r",
                  "sandbox",
                  Type.CHARGE_RETURNED,
                  "sub-back",
                  1,
                  "charge:sub-back:1:1",
                  "txn_sub-back_1",
                  "R01",
                  "Insufficient funds",
                  Instant.parse("2028-01-17T12:00:00Z")));
      t.runUntil("2028-01-20T00:00:00Z");

      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/returned", "cycle-1/charge-2");
      RecordInput reopened = period.get(1);
      assertThat(reopened.event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(reopened.process()).isEqualTo(Process.WEBHOOK);
      assertThat(reopened.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(reopened.period().attempts()).isEqualTo(1);
      assertThat(reopened.period().failureCode()).isEqualTo("R01");
      assertThat(reopened.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(reopened.next().cycle()).isEqualTo(2);
      assertThat(reopened.detail())
          .isEqualTo(
              "payment returned: R01 (Insufficient funds) [CHARGE_RETURNED evt_r]; next retry 2028-01-18");
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::messageId)
          .containsExactly("<payment-returned-1.1.sub-back@billing>");
      assertAt(t.fake.charges().get(1).startedAt(), "2028-01-18T00:00:00Z");
      assertThat(period.get(2).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(2).receipt().transactionId()).isEqualTo("txn_sub-back_1_2");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.policyCalls()).hasSize(1);
    }
  }

  @Test
  void aReturnedPaymentOwesWhatWasCollectedNotThePriceAfterAnUpgrade() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-up", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      t.existing("sub-up")
          .changePlan(
              new PlanChangeRequest(
                  "PRO-MAX",
                  Money.parse("19.99", "USD"),
                  PlanChangeRequest.Effective.NOW,
                  "user:ada"));
      t.runUntil("2028-01-17T12:00:00Z");

      t.existing("sub-up")
          .paymentEvent(
              new PaymentEvent(
                  "evt_r",
                  "sandbox",
                  Type.CHARGE_RETURNED,
                  "sub-up",
                  1,
                  "charge:sub-up:1:1",
                  "txn_sub-up_1",
                  "R01",
                  "Insufficient funds",
                  Instant.parse("2028-01-17T12:00:00Z")));
      t.runUntil("2028-01-20T00:00:00Z");

      RecordInput reopened =
          periodRecords(t, 1).stream()
              .filter(r -> r.changeId().equals("cycle-1/charge-1/returned"))
              .findFirst()
              .orElseThrow();
      assertThat(reopened.period().amount()).isEqualTo(Money.parse("9.99", "USD"));
      Call<ChargeInput> retry =
          t.fake.charges().stream()
              .filter(c -> c.input().idempotencyKey().equals("charge:sub-up:1:2"))
              .findFirst()
              .orElseThrow();
      assertThat(retry.input().amount())
          .as("what the returned debit had collected")
          .isEqualTo(Money.parse("9.99", "USD"));
    }
  }

  @Test
  void duplicateAndOutOfOrderEventsHaveOneEffectEach() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-noisy", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      String key = "charge:sub-noisy:1:1";

      workflow.paymentEvent(event("evt_ok", Type.CHARGE_SUCCEEDED, key, "2028-01-16T00:00:00Z"));
      workflow.paymentEvent(event("evt_ok", Type.CHARGE_SUCCEEDED, key, "2028-01-16T00:00:00Z"));
      workflow.paymentEvent(
          event("evt_ok_again", Type.CHARGE_SUCCEEDED, key, "2028-01-16T00:00:00Z"));
      workflow.paymentEvent(
          event("evt_late_fail", Type.CHARGE_FAILED, key, "2028-01-15T23:00:00Z"));
      workflow.paymentEvent(
          event(
              "evt_other", Type.CHARGE_SUCCEEDED, "charge:sub-noisy:9:1", "2028-01-16T00:00:00Z"));
      t.runUntil("2028-01-16T06:00:00Z");

      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/settled");
      assertThat(t.fake.policyCalls()).isEmpty();

      workflow.paymentEvent(event("evt_back", Type.CHARGE_RETURNED, key, "2028-01-16T06:00:00Z"));
      workflow.paymentEvent(event("evt_back", Type.CHARGE_RETURNED, key, "2028-01-16T06:00:00Z"));
      workflow.paymentEvent(
          event("evt_back_again", Type.CHARGE_RETURNED, key, "2028-01-16T06:00:00Z"));
      t.runUntil("2028-01-20T00:00:00Z");

      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly(
              "cycle-1/charge-1",
              "cycle-1/charge-1/settled",
              "cycle-1/charge-1/returned",
              "cycle-1/charge-2");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-noisy:1:1", "charge:sub-noisy:1:2");
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-17T00:00:00Z"));
      assertThat(t.fake.notices()).hasSize(1);
      assertThat(t.fake.lookups()).isEmpty();
    }
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
        type == Type.CHARGE_SUCCEEDED ? null : "R01",
        type == Type.CHARGE_SUCCEEDED ? null : "Insufficient funds",
        Instant.parse(at));
  }
}
