package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.noticeInputs;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.receiptsOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import java.time.Instant;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bank debit that settles and is then returned: its two events reach the workflow late, out of
 * order or after the gateway already told it the debit came back. Whatever the order, the return is
 * recorded once and the debit's success never counts as paid.
 */
@Timeout(60)
class BankDebitReturnTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  /**
   * The dev stack's sandbox debit (settles after 3 days, returned 2 days later) under a clock jump:
   * the settlement timeout's lookup already says RETURNED when the relay delivers both events.
   */
  @Test
  void eventsOfADebitTheLookupFoundReturnedChangeNothing() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-rt", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-19T00:00:00Z");
      t.fake.gatewaySays(
          "charge:sub-rt:1:1",
          new ChargeLookup(
              ChargeLookup.Status.RETURNED,
              "txn_sub-rt_1",
              Instant.parse("2028-01-18T00:00:00Z"),
              "insufficient_funds",
              "returned"));
      t.runUntil("2028-01-21T12:00:00Z");
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/returned", "cycle-1/charge-2");

      workflow.paymentEvent(
          event(
              "evt_s",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-rt:1:1",
              "txn_sub-rt_1",
              "2028-01-18T00:00:00Z"));
      workflow.paymentEvent(
          event(
              "evt_r",
              Type.CHARGE_RETURNED,
              "charge:sub-rt:1:1",
              "txn_sub-rt_1",
              "2028-01-20T00:00:00Z"));
      t.runUntil("2028-01-23T00:00:00Z");
      workflow.paymentEvent(
          event(
              "evt_s2",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-rt:1:2",
              "txn_sub-rt_1_2",
              "2028-01-23T00:00:00Z"));
      t.runUntil("2028-01-25T00:00:00Z");

      assertEveryRecordLanded(t);
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly(
              "cycle-1/charge-1",
              "cycle-1/charge-1/returned",
              "cycle-1/charge-2",
              "cycle-1/charge-2/settled");
      assertThat(receiptsOf(t, 1))
          .extracting(r -> r.receipt().transactionId())
          .as("the returned debit never paid")
          .containsExactly("txn_sub-rt_1_2");
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::messageId)
          .containsExactly("<payment-returned-1.1.sub-rt@billing>");
    }
  }

  @Test
  void aReturnHeardBeforeItsSettlementIsNotUndoneByIt() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-oo", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T12:00:00Z");

      workflow.paymentEvent(
          event(
              "evt_r",
              Type.CHARGE_RETURNED,
              "charge:sub-oo:1:1",
              "txn_sub-oo_1",
              "2028-01-17T12:00:00Z"));
      workflow.paymentEvent(
          event(
              "evt_s",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-oo:1:1",
              "txn_sub-oo_1",
              "2028-01-16T00:00:00Z"));
      t.runUntil("2028-01-20T00:00:00Z");

      assertEveryRecordLanded(t);
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-1/returned", "cycle-1/charge-2");
      assertThat(periodRecords(t, 1).get(1).event()).isEqualTo(HistoryEvent.PAYMENT_RETURNED);
      assertThat(receiptsOf(t, 1))
          .extracting(r -> r.receipt().transactionId())
          .containsExactly("txn_sub-oo_1_2");
      assertThat(workflow.state().lastOutcome()).doesNotContain("possible double charge");
    }
  }

  @Test
  void aSuccessSentAgainAfterTheReturnChangesNothing() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.PENDING, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-again", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");

      workflow.paymentEvent(
          event(
              "evt_s",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-again:1:1",
              "txn_sub-again_1",
              "2028-01-17T00:00:00Z"));
      t.runUntil("2028-01-17T06:00:00Z");
      workflow.paymentEvent(
          event(
              "evt_r",
              Type.CHARGE_RETURNED,
              "charge:sub-again:1:1",
              "txn_sub-again_1",
              "2028-01-17T06:00:00Z"));
      t.runUntil("2028-01-17T12:00:00Z");
      // A second delivery of the success under a new event id, as a provider's resend may carry.
      workflow.paymentEvent(
          event(
              "evt_s_resent",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-again:1:1",
              "txn_sub-again_1",
              "2028-01-17T00:00:00Z"));
      t.runUntil("2028-01-20T00:00:00Z");

      assertEveryRecordLanded(t);
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly(
              "cycle-1/charge-1",
              "cycle-1/charge-1/settled",
              "cycle-1/charge-1/returned",
              "cycle-1/charge-2");
      assertThat(receiptsOf(t, 1)).hasSize(1);
      assertThat(workflow.state().lastOutcome()).doesNotContain("possible double charge");
    }
  }

  @Test
  void aReturnOfAnUnansweredChargeIsFinalAndItsLateSuccessCollectsNothing() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-unk", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T06:00:00Z");

      workflow.paymentEvent(
          event(
              "evt_r",
              Type.CHARGE_RETURNED,
              "charge:sub-unk:1:1",
              "txn_sub-unk_1",
              "2028-01-15T05:00:00Z"));
      t.runUntil("2028-01-15T08:00:00Z");
      workflow.paymentEvent(
          event(
              "evt_s",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-unk:1:1",
              "txn_sub-unk_1",
              "2028-01-15T01:00:00Z"));
      t.runUntil("2028-01-15T12:00:00Z");

      assertEveryRecordLanded(t);
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::event)
          .containsExactly(HistoryEvent.PAYMENT_FAILED, HistoryEvent.PAYMENT_RETURNED);
      assertThat(receiptsOf(t, 1)).as("the returned charge never paid").isEmpty();
    }
  }

  @Test
  void aRunRestartedAfterAReturnDoesNotCollectTheReturnedDebitsLateSuccess() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-15T12:00:00Z")) {
      // Cycle 2's debit was returned (recorded ERROR) and the run was lost; the relay then
      // delivers the debit's success late.
      t.fake.gatewaySays(
          "charge:sub-rr:2:1",
          new ChargeLookup(
              ChargeLookup.Status.RETURNED,
              "txn_sub-rr_2",
              Instant.parse("2028-02-14T00:00:00Z"),
              "R01",
              "Insufficient funds"));
      SubscriptionWorkflow workflow =
          t.restart(
              BillingTestEnvironment.requested("sub-rr", ON_THE_15TH, "9.99")
                  .withStatus(dev.billing.domain.SubscriptionStatus.PAST_DUE)
                  .scheduledFor(3)
                  .withVersion(7),
              java.util.List.of(
                  new dev.billing.domain.Period(
                      BillingTestEnvironment.ACCOUNT,
                      "sub-rr",
                      2,
                      ON_THE_15TH.dueDate(2),
                      dev.billing.domain.Money.parse("9.99", "USD"),
                      dev.billing.domain.PeriodStatus.ERROR,
                      1,
                      null,
                      "R01",
                      "Insufficient funds",
                      Instant.parse("2028-02-15T10:00:00Z"))));
      workflow.paymentEvent(
          event(
              "evt_s",
              Type.CHARGE_SUCCEEDED,
              "charge:sub-rr:2:1",
              "txn_sub-rr_2",
              "2028-02-13T00:00:00Z"));
      t.runUntil("2028-02-15T18:00:00Z");

      assertThat(periodRecords(t, 2)).as("nothing collected by the returned debit").isEmpty();
      assertThat(workflow.state().lastOutcome())
          .contains("the gateway says RETURNED: not collected");
    }
  }

  @Test
  void aDebitThatIsAlwaysReturnedUsesUpItsRetriesInsteadOfDunningForever() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(
          new dev.billing.domain.DunningPolicy(
              java.util.List.of(1), dev.billing.domain.DunningPolicy.FinalOutcome.LEAVE_UNPAID));
      t.fake.script(1, ChargeMode.PENDING, ChargeMode.PENDING, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-bounce", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      // Each debit settles, then the bank returns it the next day.
      for (int attempt = 1; attempt <= 3; attempt++) {
        String key = "charge:sub-bounce:1:" + attempt;
        String txn = "txn_sub-bounce_1" + (attempt == 1 ? "" : "_" + attempt);
        if (t.fake.charges().stream().noneMatch(c -> c.input().idempotencyKey().equals(key))) {
          break;
        }
        workflow.paymentEvent(
            event("evt_s" + attempt, Type.CHARGE_SUCCEEDED, key, txn, t.now().toString()));
        t.runUntil(t.now().plusSeconds(3600).toString());
        workflow.paymentEvent(
            event("evt_r" + attempt, Type.CHARGE_RETURNED, key, txn, t.now().toString()));
        t.runUntil(t.now().plusSeconds(3 * 86400).toString());
      }

      assertThat(t.fake.charges()).as("the first attempt and the policy's one retry").hasSize(2);
      assertThat(workflow.state().lastOutcome()).contains("dunning exhausted after 2 attempts");
    }
  }

  /**
   * A refused record (a change id reused for another change) never lands: the real store retries it
   * forever.
   */
  private static void assertEveryRecordLanded(BillingTestEnvironment t) {
    assertThat(t.fake.writes())
        .extracting(w -> w.changeId() + "@v" + w.next().version())
        .as("every record landed")
        .containsAll(
            t.fake.records().stream()
                .map(c -> c.input().changeId() + "@v" + c.input().next().version())
                .toList());
  }

  private static PaymentEvent event(
      String id, Type type, String key, String transactionId, String at) {
    String subscriptionId = key.split(":")[1];
    long cycle = Long.parseLong(key.split(":")[2]);
    boolean succeeded = type == Type.CHARGE_SUCCEEDED;
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        subscriptionId,
        cycle,
        key,
        transactionId,
        succeeded ? null : "insufficient_funds",
        succeeded ? null : "returned",
        Instant.parse(at));
  }
}
