package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.noticeInputs;
import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.MerchantEvent;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.MerchantEvents;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.NotifyCustomerInput.Kind;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A subscription's first payment: INCOMPLETE until it is collected, retried on its own short
 * schedule (default: the day after the due date and two days after that), then INCOMPLETE_EXPIRED
 * with nothing owed; a customer who has paid before is dunned PAST_DUE as before.
 */
@Timeout(60)
class FirstPaymentTest {

  /** Due on the 15th (UTC), reminder on the 12th. */
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  @Test
  void aFirstChargeDeclinedIsRetriedOnItsOwnDatesThenTheSubscriptionExpires() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requestedIncomplete("sub-inc", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-17T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.INCOMPLETE);
      t.runUntil("2028-03-20T00:00:00Z");

      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-inc:1:1", "charge:sub-inc:1:2", "charge:sub-inc:1:3");
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-16T00:00:00Z", "2028-01-18T00:00:00Z"));
      List<RecordInput> period1 = periodRecords(t, 1);
      assertThat(period1)
          .extracting(RecordInput::event)
          .containsExactly(
              HistoryEvent.PAYMENT_FAILED,
              HistoryEvent.PAYMENT_FAILED,
              HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(period1)
          .extracting(r -> r.next().status())
          .containsExactly(
              SubscriptionStatus.INCOMPLETE,
              SubscriptionStatus.INCOMPLETE,
              SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(period1).extracting(r -> r.period().status()).containsOnly(PeriodStatus.ERROR);
      RecordInput expired = period1.get(2);
      assertThat(expired.detail())
          .isEqualTo(
              "payment failed: card_declined (Your card was declined.); first payment not"
                  + " collected after 3 attempts: subscription expired (INCOMPLETE_EXPIRED)");
      assertThat(expired.next().nextPaymentDate()).as("out of the due-payments index").isNull();
      assertThat(expired.next().nextReminderDate()).isNull();
      assertThat(MerchantEvents.of(expired))
          .extracting(MerchantEvent::type)
          .containsExactly(
              MerchantEventType.PAYMENT_FAILED, MerchantEventType.SUBSCRIPTION_INCOMPLETE_EXPIRED);
      assertThat(t.fake.records())
          .extracting(c -> c.input().next().status())
          .doesNotContain(SubscriptionStatus.PAST_DUE);

      List<NotifyCustomerInput> notices = noticeInputs(t);
      assertThat(notices)
          .extracting(NotifyCustomerInput::kind)
          .containsExactly(Kind.PAYMENT_FAILED, Kind.PAYMENT_FAILED, Kind.SUBSCRIPTION_EXPIRED);
      assertThat(notices)
          .extracting(NotifyCustomerInput::date)
          .containsExactly(LocalDate.of(2028, 1, 16), LocalDate.of(2028, 1, 18), null);
      assertThat(notices.get(2).messageId()).isEqualTo("<expired.1.sub-inc@billing>");
      assertThat(notices.get(2).amount().toString()).isEqualTo("9.99 USD");
      assertThat(t.fake.reminders())
          .as("the only reminder is the first payment's: the next cycle is never billed")
          .extracting(r -> r.input().paymentDate())
          .containsExactly(LocalDate.of(2028, 1, 15));

      SubscriptionState end = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(end.subscription().status()).isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
    }
  }

  @Test
  void aFirstChargeThatSucceedsOnItsRetryActivatesTheSubscription() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.OK);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requestedIncomplete("sub-late", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-10T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.INCOMPLETE);

      t.runUntil("2028-02-16T00:00:00Z");

      List<RecordInput> period1 = periodRecords(t, 1);
      assertThat(period1)
          .extracting(r -> r.next().status())
          .containsExactly(SubscriptionStatus.INCOMPLETE, SubscriptionStatus.ACTIVE);
      assertThat(MerchantEvents.of(period1.get(1)))
          .extracting(MerchantEvent::type)
          .containsExactly(
              MerchantEventType.PAYMENT_SUCCEEDED, MerchantEventType.SUBSCRIPTION_ACTIVATED);
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-16T00:00:00Z", "2028-02-15T00:00:00Z"));
      assertThat(t.fake.reminders())
          .extracting(r -> r.input().paymentDate())
          .containsExactly(LocalDate.of(2028, 1, 15), LocalDate.of(2028, 2, 15));
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aTrialWhoseFirstChargeFailsIsIncompleteNotPastDue() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.OK);
      Subscription trial =
          BillingTestEnvironment.requested("sub-trial", ON_THE_15TH, "9.99")
              .withStatus(SubscriptionStatus.TRIALING)
              .withLifecycle(new Lifecycle(LocalDate.of(2028, 1, 15), null, null, null, null));
      SubscriptionWorkflow workflow = t.start(trial);

      t.runUntil("2028-01-15T12:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.INCOMPLETE);
      t.runUntil("2028-01-19T00:00:00Z");

      List<RecordInput> period1 = periodRecords(t, 1);
      assertThat(period1)
          .extracting(r -> r.previous().status())
          .containsExactly(
              SubscriptionStatus.TRIALING,
              SubscriptionStatus.INCOMPLETE,
              SubscriptionStatus.INCOMPLETE);
      assertThat(period1)
          .extracting(r -> r.next().status())
          .containsExactly(
              SubscriptionStatus.INCOMPLETE,
              SubscriptionStatus.INCOMPLETE,
              SubscriptionStatus.ACTIVE);
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-16T00:00:00Z", "2028-01-18T00:00:00Z"));
      assertThat(MerchantEvents.of(period1.get(2)))
          .extracting(MerchantEvent::type)
          .contains(MerchantEventType.SUBSCRIPTION_ACTIVATED);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aCustomerWhoHasPaidBeforeIsDunnedPastDueAsBefore() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(
          2,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE,
          ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requestedIncomplete("sub-paid", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-25T00:00:00Z");

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-15T00:00:00Z",
              "2028-02-15T00:00:00Z",
              "2028-02-16T00:00:00Z",
              "2028-02-18T00:00:00Z",
              "2028-02-20T00:00:00Z",
              "2028-02-22T00:00:00Z"));
      assertThat(periodRecords(t, 1))
          .extracting(r -> r.next().status())
          .containsExactly(SubscriptionStatus.ACTIVE);
      List<RecordInput> period2 = periodRecords(t, 2);
      assertThat(period2)
          .extracting(r -> r.next().status())
          .containsOnly(SubscriptionStatus.PAST_DUE);
      assertThat(period2.get(period2.size() - 1).event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(period2.get(period2.size() - 1).detail())
          .endsWith("dunning exhausted after 5 attempts: LEAVE_UNPAID");
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .doesNotContain(Kind.SUBSCRIPTION_EXPIRED);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
    }
  }

  @Test
  void anUnknownLastAttemptIsAskedAboutBeforeTheSubscriptionExpires() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.UNAVAILABLE);
      t.start(BillingTestEnvironment.requestedIncomplete("sub-unk", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      t.fake.lookupsDown(true);

      t.runUntil("2028-01-21T00:00:00Z");
      SubscriptionWorkflow workflow = t.existing("sub-unk");
      assertThat(workflow.state().subscription().status())
          .as("never expired while the gateway cannot say what the last key did")
          .isEqualTo(SubscriptionStatus.INCOMPLETE);
      assertThat(t.fake.records())
          .extracting(c -> c.input().event())
          .doesNotContain(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .doesNotContain(Kind.SUBSCRIPTION_EXPIRED);

      t.fake.lookupsDown(false);
      t.runUntil("2028-01-23T00:00:00Z");

      List<RecordInput> period1 = periodRecords(t, 1);
      RecordInput last = period1.get(period1.size() - 1);
      assertThat(last.event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(t.fake.lookups()).isNotEmpty();
      assertThat(t.fake.successfulCharges()).isEmpty();
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .containsExactly(Kind.PAYMENT_FAILED, Kind.PAYMENT_FAILED, Kind.SUBSCRIPTION_EXPIRED);
    }
  }

  @Test
  void aLastAttemptThatChargedWithoutAnAnswerActivatesInsteadOfExpiring() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(
          1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.CHARGED_NO_ANSWER);
      t.start(BillingTestEnvironment.requestedIncomplete("sub-paid-late", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-20T00:00:00Z");

      List<RecordInput> period1 = periodRecords(t, 1);
      RecordInput last = period1.get(period1.size() - 1);
      assertThat(last.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(t.fake.records())
          .extracting(c -> c.input().next().status())
          .doesNotContain(SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(t.fake.successfulCharges()).hasSize(1);
      assertThat(t.existing("sub-paid-late").state().subscription().status())
          .isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void theNextCycleWaitsWhileTheFirstPaymentIsRetried() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Reminded 20 days ahead: cycle 2's reminder (Jan 26) falls before the last retry (Jan 29).
      BillingSchedule early =
          new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 20);
      t.fake.policy(
          new DunningPolicy(List.of(1, 3, 5, 7), FinalOutcome.LEAVE_UNPAID, 90, List.of(14)));
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      t.start(BillingTestEnvironment.requestedIncomplete("sub-held", early, "9.99"));

      t.runUntil("2028-03-01T00:00:00Z");

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-29T00:00:00Z"));
      assertThat(t.fake.reminders())
          .extracting(r -> r.input().paymentDate())
          .containsExactly(LocalDate.of(2028, 1, 15));
      assertThat(periodRecords(t, 1).get(1).next().status())
          .isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
    }
  }

  @Test
  void anIncompleteSubscriptionPausedBeforeItsFirstChargeResumesIncompleteButNotWhileRetried() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(2, ChargeMode.SOFT_DECLINE, ChargeMode.OK);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requestedIncomplete("sub-pause", ON_THE_15TH, "9.99"));
      workflow.created();
      workflow.pause(new PauseRequest(1, null, null, "user:ada"));
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAUSED);

      t.runUntil("2028-02-15T12:00:00Z");
      // Cycle 1 was skipped while paused: cycle 2 is the first charge, declined.
      assertThat(periodRecords(t, 2))
          .extracting(r -> r.next().status())
          .containsExactly(SubscriptionStatus.INCOMPLETE);
      assertThat(t.fake.records())
          .extracting(c -> c.input().next().status())
          .as("resumed INCOMPLETE: it never paid")
          .doesNotContain(SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE);
      assertThatThrownBy(() -> workflow.pause(new PauseRequest(1, null, null, "user:ada")))
          .isInstanceOf(WorkflowUpdateException.class)
          .cause()
          .hasMessageContaining("is being retried");

      t.runUntil("2028-02-17T00:00:00Z");
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aFirstBankDebitReturnedBeforeItSettledIsStillAFirstPayment() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      // Found by the model test: such a return was dunned PAST_DUE for a customer who never paid.
      t.fake.script(1, ChargeMode.PENDING, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requestedIncomplete("sub-debit", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T12:00:00Z");
      workflow.paymentEvent(
          new dev.billing.domain.PaymentEvent(
              "evt_r",
              "sandbox",
              dev.billing.domain.PaymentEvent.Type.CHARGE_RETURNED,
              "sub-debit",
              1,
              "charge:sub-debit:1:1",
              "txn_sub-debit_1",
              "insufficient_funds",
              "returned",
              java.time.Instant.parse("2028-01-17T12:00:00Z")));

      t.runUntil("2028-01-25T00:00:00Z");

      List<RecordInput> period1 = periodRecords(t, 1);
      assertThat(period1)
          .extracting(r -> r.next().status())
          .doesNotContain(SubscriptionStatus.PAST_DUE)
          .contains(SubscriptionStatus.INCOMPLETE)
          .last()
          .isEqualTo(SubscriptionStatus.INCOMPLETE_EXPIRED);
      // Retried from the return date on the first payment's schedule: Jan 18 and Jan 20.
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-18T00:00:00Z", "2028-01-20T00:00:00Z"));
    }
  }
}
