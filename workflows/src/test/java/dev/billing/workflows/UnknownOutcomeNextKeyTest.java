package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.noticeInputs;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.subscription.SubscriptionChanges;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An attempt without an answer that the gateway's exact read proves never charged: the next retry
 * date sends the next attempt's key, never the same one, which the gateway may answer from a stored
 * 500 for 24 hours.
 */
@Timeout(60)
class UnknownOutcomeNextKeyTest {

  private static final PaymentMethod MASTERCARD =
      new PaymentMethod("pm_card_mastercard", "Mastercard •••• 4444");
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void aServerErrorKeptForTheKeyDoesNotDelayPaymentTheNextDateSendsTheNextKey() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SERVER_ERROR);
      t.start(BillingTestEnvironment.requested("sub-500", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-20T00:00:00Z");

      List<String> keys = t.fake.charges().stream().map(c -> c.input().idempotencyKey()).toList();
      assertThat(keys)
          .as("the key with a stored 500 is never sent again")
          .containsSubsequence("charge:sub-500:1:1", "charge:sub-500:1:2");
      assertThat(keys.stream().filter("charge:sub-500:1:2"::equals)).hasSize(1);
      assertThat(keys.get(keys.size() - 1)).isEqualTo("charge:sub-500:1:2");
      Call<?> next = t.fake.charges().get(keys.indexOf("charge:sub-500:1:2"));
      assertAt(next.startedAt(), "2028-01-16T00:00:00Z");
      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-500:1:1", "charge:sub-500:1:1");
      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2");
      assertThat(period.get(1).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(1).period().attempts()).isEqualTo(2);
      assertThat(period.get(1).receipt().transactionId()).isEqualTo("txn_sub-500_1_2");
      assertThat(t.fake.succeededCharges()).containsOnlyKeys("charge:sub-500:1:2");
      assertThat(t.fake.notices()).as("the customer was never declined").isEmpty();
    }
  }

  @Test
  void aNewMethodRightAfterTheUnknownAttemptSendsTheSameKeyAsNotFoundIsNoProofYet() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SERVER_ERROR);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-soon", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T00:20:00Z");
      int sent = t.fake.charges().size();

      // Within the hour a request of the key could still be executing: a new key could charge
      // twice. The same key to another method is refused by the gateway, and nothing moves.
      workflow.changePaymentMethod(new PaymentMethodChange(MASTERCARD, "user:ada"));
      t.runUntil("2028-01-15T01:00:00Z");
      assertThat(t.fake.charges().subList(sent, t.fake.charges().size()))
          .extracting(c -> c.input().idempotencyKey() + " " + c.input().paymentMethod().token())
          .isNotEmpty()
          .containsOnly("charge:sub-soon:1:1 pm_card_mastercard");

      t.runUntil("2028-01-17T00:00:00Z");
      List<Call<ChargeInput>> charges = t.fake.charges();
      Call<ChargeInput> last = charges.get(charges.size() - 1);
      assertThat(last.input().idempotencyKey()).isEqualTo("charge:sub-soon:1:2");
      assertAt(last.startedAt(), "2028-01-16T00:00:00Z");
      assertThat(t.fake.succeededCharges()).containsOnlyKeys("charge:sub-soon:1:2");
      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2");
    }
  }

  @Test
  void anUnknownAttemptThatNeverChargedUsesItsDateButNoFailureNoticeAndDunningStaysFinite() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(
          1,
          ChargeMode.SERVER_ERROR,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE);
      t.start(BillingTestEnvironment.requested("sub-count", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-01T00:00:00Z");

      // The policy's dates (due + 1, 3, 5, 7) are each tried once, with a new key each.
      assertThat(t.fake.charges())
          .filteredOn(c -> !c.input().idempotencyKey().endsWith(":1:1"))
          .extracting(
              c ->
                  c.input().idempotencyKey()
                      + "@"
                      + LocalDate.ofInstant(c.startedAt(), java.time.ZoneOffset.UTC))
          .containsExactly(
              "charge:sub-count:1:2@2028-01-16",
              "charge:sub-count:1:3@2028-01-18",
              "charge:sub-count:1:4@2028-01-20",
              "charge:sub-count:1:5@2028-01-22");
      List<RecordInput> period = periodRecords(t, 1);
      assertThat(period)
          .extracting(RecordInput::changeId)
          .containsExactly(
              "cycle-1/charge-1",
              "cycle-1/charge-2",
              "cycle-1/charge-3",
              "cycle-1/charge-4",
              "cycle-1/charge-5");
      assertThat(period.get(4).event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::date)
          .containsExactly(
              LocalDate.parse("2028-01-18"),
              LocalDate.parse("2028-01-20"),
              LocalDate.parse("2028-01-22"),
              null);
      assertThat(t.fake.successfulCharges()).isEmpty();
    }
  }

  @Test
  void aRestartedRunNeverSendsTheUnknownKeyAgainWhenTheLostRunSentTheNextOne() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-16T12:00:00Z")) {
      // The lost run recorded attempt 1 without an answer, found it NOT_FOUND on Feb 16, sent
      // attempt 2, which charged, and died before recording it.
      t.fake.gatewaySays(
          "charge:sub-back:2:2",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_lost_2",
              Instant.parse("2028-02-16T00:00:05Z"),
              null,
              null));
      Subscription record =
          BillingTestEnvironment.requested("sub-back", ON_THE_15TH, "9.99")
              .withStatus(SubscriptionStatus.PAST_DUE)
              .scheduledFor(3)
              .withVersion(7);
      Money price = new Money(999, "USD");
      t.restart(
          record,
          List.of(
              new Period(
                  "acc-7",
                  "sub-back",
                  2,
                  ON_THE_15TH.dueDate(2),
                  price,
                  PeriodStatus.ERROR,
                  1,
                  null,
                  SubscriptionChanges.GATEWAY_UNAVAILABLE,
                  "no answer",
                  Instant.parse("2028-02-15T00:01:00Z"))));

      t.runUntil("2028-02-19T00:00:00Z");

      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-back:2:1", "charge:sub-back:2:2");
      assertThat(t.fake.charges()).as("neither key is sent: :1 proved unsent, :2 found").isEmpty();
      List<RecordInput> period = periodRecords(t, 2);
      assertThat(period).hasSize(1);
      assertThat(period.get(0).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period.get(0).period().attempts()).isEqualTo(2);
      assertThat(period.get(0).receipt().transactionId()).isEqualTo("txn_lost_2");
      assertThat(t.fake.successfulCharges()).hasSize(1);
    }
  }
}
