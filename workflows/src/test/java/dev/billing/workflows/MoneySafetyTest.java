package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.noticeInputs;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.subscription.SubscriptionChanges;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exactly once with a gateway as strict as Stripe (see {@link FakeGatewayLedger}: keys forgotten
 * after 24 hours, refused when reused with other parameters). Each test is a path on which a
 * customer could be charged twice, or a charge could be lost from the record.
 */
@Timeout(60)
class MoneySafetyTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  private static final Money PRICE = new Money(999, "USD");

  private static Period period(
      String sub, long cycle, PeriodStatus status, int attempts, String txn, String code) {
    return new Period(
        BillingTestEnvironment.ACCOUNT,
        sub,
        cycle,
        ON_THE_15TH.dueDate(cycle),
        PRICE,
        status,
        attempts,
        txn,
        code,
        code == null ? null : "why: " + code,
        Instant.parse("2028-02-15T00:00:00Z"));
  }

  /** The record a lost run left: {@code next} is the cycle it was working towards. */
  private static Subscription record(String sub, long next, SubscriptionStatus status) {
    return BillingTestEnvironment.requested(sub, ON_THE_15TH, "9.99")
        .withStatus(status)
        .scheduledFor(next)
        .withVersion(7);
  }

  @Test
  void aRunRestartedDaysAfterTheLostRunChargedAsksTheGatewayInsteadOfSendingTheKeyAgain() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-03-17T00:00:00Z")) {
      // The lost run charged cycle 3 on its due date and died before recording it; the gateway
      // forgot the key a day later.
      t.fake.gatewaySays(
          "charge:sub-lost:3:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_lost_3",
              Instant.parse("2028-03-15T00:00:00Z"),
              null,
              null));

      t.restart(
          record("sub-lost", 3, SubscriptionStatus.ACTIVE),
          List.of(period("sub-lost", 2, PeriodStatus.COMPLETED, 1, "txn_2", null)));
      t.runUntil("2028-03-18T00:00:00Z");

      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-lost:3:1");
      assertThat(t.fake.charges()).as("nothing sent: the gateway says it was charged").isEmpty();
      List<RecordInput> cycle3 = periodRecords(t, 3);
      assertThat(cycle3).hasSize(1);
      assertThat(cycle3.get(0).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(cycle3.get(0).receipt().transactionId()).isEqualTo("txn_lost_3");
      assertThat(t.fake.successfulCharges()).hasSize(1);
    }
  }

  @Test
  void aRestartedRunLooksUpTheRetryTheLostRunMadeButNeverRecorded() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-19T12:00:00Z")) {
      // Attempts 1 and 2 of cycle 2 were declined and recorded; attempt 3 (Feb 18) collected,
      // and the run was lost before it wrote that down.
      t.fake.gatewaySays(
          "charge:sub-retry:2:3",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_retry_2_3",
              Instant.parse("2028-02-18T00:00:00Z"),
              null,
              null));

      t.restart(
          record("sub-retry", 3, SubscriptionStatus.PAST_DUE),
          List.of(period("sub-retry", 2, PeriodStatus.ERROR, 2, null, "insufficient_funds")));
      t.runUntil("2028-02-21T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .doesNotContain("charge:sub-retry:2:3");
      List<RecordInput> cycle2 = periodRecords(t, 2);
      assertThat(cycle2)
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.COMPLETED);
      assertThat(cycle2.get(0).period().attempts()).isEqualTo(3);
      assertThat(cycle2.get(0).receipt().transactionId()).isEqualTo("txn_retry_2_3");
      assertThat(cycle2.get(0).next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.successfulCharges()).hasSize(1);
    }
  }

  @Test
  void aRetryTheLostRunMadeAndTheBankReturnedStaysReturnedWhateverEventComesLate() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-19T12:00:00Z")) {
      t.fake.gatewaySays(
          "charge:sub-ret:2:3",
          new ChargeLookup(
              ChargeLookup.Status.RETURNED,
              "txn_ret_2_3",
              Instant.parse("2028-02-18T00:00:00Z"),
              "R01",
              "Insufficient funds"));
      t.restart(
          record("sub-ret", 3, SubscriptionStatus.PAST_DUE),
          List.of(period("sub-ret", 2, PeriodStatus.ERROR, 2, null, "insufficient_funds")));
      t.runUntil("2028-02-20T12:00:00Z");

      // A stale success of the returned debit, redelivered after the restart learnt of the return.
      t.existing("sub-ret")
          .paymentEvent(
              new PaymentEvent(
                  "evt_stale",
                  "sandbox",
                  PaymentEvent.Type.CHARGE_SUCCEEDED,
                  "sub-ret",
                  2,
                  "charge:sub-ret:2:3",
                  "txn_ret_2_3",
                  null,
                  null,
                  Instant.parse("2028-02-18T00:00:00Z")));
      t.runUntil("2028-02-21T00:00:00Z");

      assertThat(periodRecords(t, 2))
          .noneSatisfy(r -> assertThat(r.period().status()).isEqualTo(PeriodStatus.COMPLETED));
    }
  }

  @Test
  void aRestartLooksUpTheNextKeyOfAPeriodWhoseScheduleIsUsedUpBeforeLeavingItUnpaid() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-15T12:00:00Z")) {
      // Cycle 1 was declined five times (its retries ended Jan 22); the lost run then took a
      // manual payment (attempt 6) and died before recording it.
      t.fake.gatewaySays(
          "charge:sub-owed:1:6",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_owed_1_6",
              Instant.parse("2028-02-10T00:00:00Z"),
              null,
              null));

      t.restart(
          record("sub-owed", 2, SubscriptionStatus.PAST_DUE),
          List.of(period("sub-owed", 1, PeriodStatus.ERROR, 5, null, "card_declined")));
      t.runUntil("2028-02-16T00:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1)
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.COMPLETED);
      assertThat(cycle1.get(0).period().attempts()).isEqualTo(6);
      assertThat(cycle1.get(0).receipt().transactionId()).isEqualTo("txn_owed_1_6");
      assertThat(t.existing("sub-owed").state().subscription().status())
          .isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aRestartResolvingAnUnknownLastKeyAlsoLooksUpTheKeySentAfterIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-15T12:00:00Z")) {
      // Attempt 4 got no answer and was recorded so; the lost run learnt it failed, sent attempt 5
      // (collected) and died before recording it.
      t.fake.gatewaySays(
          "charge:sub-two:1:4",
          new ChargeLookup(
              ChargeLookup.Status.FAILED,
              "txn_two_1_4",
              Instant.parse("2028-01-20T00:00:00Z"),
              "card_declined",
              "declined"));
      t.fake.gatewaySays(
          "charge:sub-two:1:5",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_two_1_5",
              Instant.parse("2028-01-22T00:00:00Z"),
              null,
              null));

      t.restart(
          record("sub-two", 2, SubscriptionStatus.PAST_DUE),
          List.of(
              period(
                  "sub-two",
                  1,
                  PeriodStatus.ERROR,
                  4,
                  null,
                  SubscriptionChanges.GATEWAY_UNAVAILABLE)));
      t.runUntil("2028-02-16T00:00:00Z");

      assertThat(t.fake.records())
          .extracting(c -> c.input().event())
          .doesNotContain(HistoryEvent.DUNNING_EXHAUSTED);
      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1)
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.COMPLETED);
      assertThat(cycle1.get(0).receipt().transactionId()).isEqualTo("txn_two_1_5");
    }
  }

  @Test
  void aCancellationLooksUpTheKeyALostRunMayHaveSentBeforeItDropsThePeriod() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-19T12:00:00Z")) {
      t.fake.gatewaySays(
          "charge:sub-gone:2:3",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_gone_2_3",
              Instant.parse("2028-02-18T00:00:00Z"),
              null,
              null));
      SubscriptionWorkflow workflow =
          t.restart(
              record("sub-gone", 3, SubscriptionStatus.PAST_DUE),
              List.of(period("sub-gone", 2, PeriodStatus.ERROR, 2, null, "insufficient_funds")));

      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      t.runUntil("2028-02-20T12:00:00Z");

      assertThat(t.fake.charges()).isEmpty();
      List<RecordInput> cycle2 = periodRecords(t, 2);
      assertThat(cycle2)
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.COMPLETED);
      assertThat(cycle2.get(0).receipt().transactionId()).isEqualTo("txn_gone_2_3");
      assertThat(cycle2.get(0).next().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void anUnknownLastAttemptWithCancelWaitsForTheGatewayAndAPaidSubscriptionIsNotCancelled() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1, 3), FinalOutcome.CANCEL));
      t.fake.script(
          1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requested("sub-last", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      t.fake.lookupsDown(true);

      t.runUntil("2028-01-18T12:00:00Z");
      assertThat(t.fake.records())
          .extracting(c -> c.input().event())
          .doesNotContain(HistoryEvent.DUNNING_EXHAUSTED, HistoryEvent.SUBSCRIPTION_CANCELLED);
      SubscriptionWorkflow workflow = t.existing("sub-last");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);

      t.fake.lookupsDown(false);
      t.runUntil("2028-01-20T00:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      RecordInput last = cycle1.get(cycle1.size() - 1);
      assertThat(last.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(last.period().attempts()).isEqualTo(3);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.records())
          .extracting(c -> c.input().event())
          .doesNotContain(HistoryEvent.DUNNING_EXHAUSTED, HistoryEvent.SUBSCRIPTION_CANCELLED);
      assertThat(t.fake.successfulCharges()).hasSize(1);
    }
  }

  @Test
  void anUnknownLastAttemptThatTheGatewayNeverMadeEndsDunningAnHourLater() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1, 3), FinalOutcome.CANCEL));
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.UNAVAILABLE);
      t.start(BillingTestEnvironment.requested("sub-never", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-19T00:00:00Z");

      List<RecordInput> records = t.fake.records().stream().map(c -> c.input()).toList();
      RecordInput exhausted =
          records.stream()
              .filter(r -> r.event() == HistoryEvent.DUNNING_EXHAUSTED)
              .findFirst()
              .orElseThrow();
      assertThat(exhausted.period().failureCode())
          .as("known now: a restart must not resolve it again")
          .isEqualTo(SubscriptionChanges.CHARGE_NOT_MADE);
      assertThat(exhausted.at())
          .as("an hour after the last attempt, never at once")
          .isAfterOrEqualTo(Instant.parse("2028-01-18T01:00:00Z"))
          .isBefore(Instant.parse("2028-01-18T03:00:00Z"));
      assertThat(records.get(records.size() - 1).event())
          .isEqualTo(HistoryEvent.SUBSCRIPTION_CANCELLED);
      assertThat(t.fake.successfulCharges()).isEmpty();
    }
  }

  @Test
  void aLateSuccessEventForTheUnknownLastAttemptCollectsThePeriod() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), FinalOutcome.LEAVE_UNPAID));
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.CHARGED_NO_ANSWER);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-late", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");
      t.fake.lookupsDown(true);
      t.runUntil("2028-01-16T12:00:00Z");

      workflow.paymentEvent(
          new PaymentEvent(
              "evt_late",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-late",
              1,
              "charge:sub-late:1:2",
              "txn_sub-late_1_2",
              null,
              null,
              Instant.parse("2028-01-16T00:00:00Z")));
      t.runUntil("2028-01-17T00:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1.get(cycle1.size() - 1).period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(cycle1.get(cycle1.size() - 1).receipt().transactionId())
          .isEqualTo("txn_sub-late_1_2");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void anUnknownOutcomeIsLookedUpUnderThePaymentMethodItWasSentToAfterTheMethodChanged() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Attempt 2 went through on customer A's card, the answer was lost and the gateway could not
      // be asked; then the customer moved to customer B's card (Stripe lists charges per customer).
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.CHARGED_NO_ANSWER);
      SubscriptionWorkflow workflow =
          t.start(
              BillingTestEnvironment.requested("sub-moved-cus", ON_THE_15TH, "9.99")
                  .withPaymentMethod(CUSTOMER_A));
      t.runUntil("2028-01-15T12:00:00Z");
      t.fake.lookupsDown(true);
      t.runUntil("2028-01-16T12:00:00Z");
      t.fake.lookupsDown(false);

      workflow.changePaymentMethod(new PaymentMethodChange(CUSTOMER_B, "user:ada"));
      t.runUntil("2028-01-25T00:00:00Z");

      assertThat(t.fake.succeededCharges()).as("one charge per key").hasSize(1);
      assertThat(t.fake.successfulCharges()).hasSize(1);
      List<RecordInput> cycle1 = periodRecords(t, 1);
      RecordInput last = cycle1.get(cycle1.size() - 1);
      assertThat(last.period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(last.receipt().transactionId()).isEqualTo("txn_sub-moved-cus_1_2");
      assertThat(t.fake.lookups())
          .extracting(c -> c.input().paymentMethod())
          .as("asked under the method the key went to")
          .containsOnly(CUSTOMER_A);
    }
  }

  @Test
  void aNewPaymentMethodWhileResolvingIsChargedOnceTheUnknownKeyProvesUnpaid() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), FinalOutcome.LEAVE_UNPAID));
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.UNAVAILABLE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-resolve-card", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");
      t.fake.lookupsDown(true);
      t.runUntil("2028-01-16T06:00:00Z");
      t.fake.lookupsDown(false);

      workflow.changePaymentMethod(new PaymentMethodChange(CUSTOMER_B, "user:ada"));
      t.runUntil("2028-01-16T12:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey() + "@" + c.input().paymentMethod().token())
          .last()
          .isEqualTo("charge:sub-resolve-card:1:3@" + CUSTOMER_B.token());
      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .as("the unknown key is answered for first")
          .contains("charge:sub-resolve-card:1:2");
      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1.get(cycle1.size() - 1).period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(t.fake.records())
          .extracting(c -> c.input().event())
          .doesNotContain(HistoryEvent.DUNNING_EXHAUSTED);
    }
  }

  private static final PaymentMethod CUSTOMER_A = new PaymentMethod("cus_A/pm_1", "Visa •••• 4242");
  private static final PaymentMethod CUSTOMER_B = new PaymentMethod("cus_B/pm_2", "Visa •••• 1111");

  @Test
  void anIdempotencyConflictIsAnUnknownOutcomeNeverADecline() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // A request with attempt 1's key and other parameters reached the gateway first (a payment
      // method changed while a send was in flight): the workflow's own send is refused as a reuse.
      t.fake.gatewaySays(
          "charge:sub-clash:1:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_clash",
              Instant.parse("2028-01-15T00:00:00Z"),
              null,
              null));
      t.fake.conflictingKey("charge:sub-clash:1:1");
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-clash", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-15T12:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1)
          .extracting(RecordInput::event)
          .containsExactly(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(cycle1.get(0).receipt().transactionId()).isEqualTo("txn_clash");
      assertThat(noticeInputs(t)).isEmpty();
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aCycleBelowTheGatewaysMinimumIsCarriedToTheNextChargeNeverSent() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-tiny", ON_THE_15TH, "0.30"));

      t.runUntil("2028-02-16T00:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1)
          .extracting(RecordInput::event)
          .containsExactly(HistoryEvent.PAYMENT_CARRIED_OVER);
      assertThat(cycle1.get(0).period().amount()).isEqualTo(new Money(0, "USD"));
      assertThat(cycle1.get(0).next().lifecycle().balance()).isEqualTo(new Money(30, "USD"));
      assertThat(t.fake.charges())
          .extracting(c -> c.input().amount())
          .as("cycle 2 charges its own 0.30 and cycle 1's")
          .containsExactly(new Money(60, "USD"));
      assertThat(t.fake.charges().get(0).input().cycle()).isEqualTo(2);
    }
  }

  @Test
  void aBillingDayMovedWhileADebitSettlesStillFindsTheDebit() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-moved", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      // The 28th re-anchors the schedule: cycle 1's due date now reads Jan 28, after its debit.
      workflow.changeBillingDay(new BillingDayChange(28, "user:ada"));
      t.fake.gatewaySays(
          "charge:sub-moved:1:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_sub-moved_1",
              Instant.parse("2028-01-15T00:00:00Z"),
              null,
              null));

      t.runUntil("2028-01-21T00:00:00Z");

      List<RecordInput> cycle1 = periodRecords(t, 1);
      assertThat(cycle1.get(cycle1.size() - 1).period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(t.fake.charges()).hasSize(1);
    }
  }

  @Test
  void theLastPaymentFailedNoticeReachesTheCustomerBeforeTheCancellation() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1), FinalOutcome.CANCEL));
      t.fake.declineCycle(1);
      t.fake.slowNotices(NotifyCustomerInput.Kind.PAYMENT_FAILED, 400);
      t.start(BillingTestEnvironment.requested("sub-order", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-20T00:00:00Z");

      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .containsExactly(
              NotifyCustomerInput.Kind.PAYMENT_FAILED,
              NotifyCustomerInput.Kind.PAYMENT_FAILED,
              NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED);
    }
  }
}
