package dev.billing.workflows;

import static dev.billing.workflows.WorkflowTimeAssert.assertAllAt;
import static dev.billing.workflows.WorkflowTimeAssert.assertAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.DunningPolicy.FinalOutcome;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.PaymentMethod;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.NotifyCustomerInput;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Dunning: retries of an unpaid period on the snapshotted schedule, and how it ends. */
@Timeout(60)
class SubscriptionWorkflowDunningTest {

  /** Due on the 15th (UTC), reminder on the 12th. */
  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static final PaymentMethod MASTERCARD =
      new PaymentMethod("pm_card_mastercard", "Mastercard •••• 4444");

  @Test
  void softDeclinesThenSuccessOnTheThirdTry() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-dun", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-20T00:00:00Z");

      List<Call<ChargeInput>> cycle1 =
          t.fake.charges().stream().filter(c -> c.input().cycle() == 1).toList();
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-dun:1:1",
              "charge:sub-dun:1:2",
              "charge:sub-dun:1:3",
              "charge:sub-dun:2:1");
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-15T00:00:00Z",
              "2028-01-16T00:00:00Z",
              "2028-01-18T00:00:00Z",
              "2028-02-15T00:00:00Z"));
      assertThat(cycle1)
          .extracting(Call::attempt)
          .as("one call each: declines are not retried by Temporal")
          .containsOnly(1);

      List<RecordInput> period1 = periodRecords(t, 1);
      assertThat(period1)
          .extracting(RecordInput::changeId)
          .containsExactly("cycle-1/charge-1", "cycle-1/charge-2", "cycle-1/charge-3");
      assertThat(period1)
          .extracting(RecordInput::event)
          .containsExactly(
              HistoryEvent.PAYMENT_FAILED,
              HistoryEvent.PAYMENT_FAILED,
              HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(period1)
          .extracting(RecordInput::process)
          .containsExactly(Process.INITIAL, Process.RETRY, Process.RETRY);
      assertThat(period1)
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.ERROR, PeriodStatus.ERROR, PeriodStatus.COMPLETED);
      assertThat(period1).extracting(r -> r.period().attempts()).containsExactly(1, 2, 3);
      assertThat(period1)
          .extracting(r -> r.next().status())
          .containsExactly(
              SubscriptionStatus.PAST_DUE, SubscriptionStatus.PAST_DUE, SubscriptionStatus.ACTIVE);
      assertThat(period1.get(0).detail())
          .isEqualTo(
              "payment failed: card_declined (Your card was declined.); next retry 2028-01-16");
      assertThat(period1.get(1).detail())
          .isEqualTo(
              "payment failed: card_declined (Your card was declined.); next retry 2028-01-18");

      RecordInput paid = period1.get(2);
      assertThat(paid.period().transactionId()).isEqualTo("txn_sub-dun_1_3");
      assertThat(paid.receipt().transactionId()).isEqualTo("txn_sub-dun_1_3");
      assertThat(paid.receipt().cycle()).isEqualTo(1);
      assertThat(paid.receipt().processedAt()).isEqualTo(t.fake.charges().get(2).startedAt());
      assertThat(paid.next().cycle()).as("the subscription had already moved on").isEqualTo(2);
      assertThat(paid.next().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 2, 15));
      assertThat(paid.next().lastPaymentAt()).isEqualTo(t.fake.charges().get(2).startedAt());
      assertThat(receiptsOf(t, 1)).as("one receipt for the period").hasSize(1);
      assertThat(t.fake.succeededCharges())
          .containsOnlyKeys("charge:sub-dun:1:3", "charge:sub-dun:2:1");

      List<NotifyCustomerInput> notices = noticeInputs(t);
      assertThat(notices)
          .extracting(NotifyCustomerInput::kind)
          .containsOnly(NotifyCustomerInput.Kind.PAYMENT_FAILED);
      assertThat(notices)
          .extracting(NotifyCustomerInput::messageId)
          .containsExactly(
              "<payment-failed-1.1.sub-dun@billing>", "<payment-failed-2.1.sub-dun@billing>");
      assertThat(notices)
          .extracting(NotifyCustomerInput::date)
          .containsExactly(LocalDate.of(2028, 1, 16), LocalDate.of(2028, 1, 18));
      assertThat(notices)
          .extracting(NotifyCustomerInput::reason)
          .containsOnly("Your card was declined.");
      assertThat(t.fake.policyCalls()).extracting(c -> c.input().cycle()).containsExactly(1L);

      assertThat(t.fake.reminders())
          .extracting(r -> r.input().paymentDate())
          .containsExactly(LocalDate.of(2028, 1, 15), LocalDate.of(2028, 2, 15));
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void hardDeclineSkipsTheRetries() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.HARD_DECLINE);
      t.start(BillingTestEnvironment.requested("sub-hard", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-10T00:00:00Z");

      assertThat(t.fake.charges()).hasSize(1);
      assertThat(t.fake.charges().get(0).attempt()).as("not retried by Temporal").isEqualTo(1);
      RecordInput failed = periodRecords(t, 1).get(0);
      assertThat(periodRecords(t, 1)).hasSize(1);
      assertThat(failed.event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(failed.process()).isEqualTo(Process.INITIAL);
      assertThat(failed.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(failed.period().failureCode()).isEqualTo("stolen_card");
      assertThat(failed.detail())
          .isEqualTo(
              "payment failed: stolen_card (The card was reported stolen.);"
                  + " dunning exhausted after 1 attempt (hard decline: no retries): LEAVE_UNPAID");
      assertThat(failed.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::date)
          .containsExactly((LocalDate) null);

      t.runUntil("2028-02-20T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-hard:1:1", "charge:sub-hard:2:1");
    }
  }

  @Test
  void exhaustedWithCancelRecordsTheCancellationAndEnds() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(1, 3), FinalOutcome.CANCEL));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-gone", ON_THE_15TH, "9.99"));

      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-16T00:00:00Z", "2028-01-18T00:00:00Z"));
      List<RecordInput> records = t.fake.records().stream().map(Call::input).toList();
      assertThat(records)
          .extracting(RecordInput::changeId)
          .containsExactly(
              "create", "cycle-1/charge-1", "cycle-1/charge-2", "cycle-1/charge-3", "cancel");
      assertThat(records.get(3).event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(records.get(3).detail()).endsWith("; dunning exhausted after 3 attempts: CANCEL");
      RecordInput cancel = records.get(4);
      assertThat(cancel.event()).isEqualTo(HistoryEvent.SUBSCRIPTION_CANCELLED);
      assertThat(cancel.process()).isEqualTo(Process.RETRY);
      assertThat(cancel.actor()).isEqualTo("system");
      assertThat(cancel.detail()).isEqualTo("payment for cycle 1 not collected after 3 attempts");
      assertThat(cancel.period().cycle()).as("the period being waited for").isEqualTo(2);
      assertThat(cancel.period().status()).isEqualTo(PeriodStatus.CANCELLED);
      assertThat(cancel.next().nextPaymentDate()).isNull();
      assertAt(cancel.at(), "2028-01-18T00:00:00Z");

      assertThat(ended.phase()).isEqualTo(Phase.ENDED);
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(ended.lastOutcome())
          .isEqualTo("cancelled by system: payment for cycle 1 not collected after 3 attempts");
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .containsExactly(
              NotifyCustomerInput.Kind.PAYMENT_FAILED, NotifyCustomerInput.Kind.PAYMENT_FAILED,
              NotifyCustomerInput.Kind.PAYMENT_FAILED,
                  NotifyCustomerInput.Kind.SUBSCRIPTION_CANCELLED);
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::date)
          .containsExactly(
              LocalDate.of(2028, 1, 16),
              LocalDate.of(2028, 1, 18),
              null,
              LocalDate.of(2028, 1, 18));
      assertThat(t.fake.reminders()).hasSize(1);
    }
  }

  @Test
  void exhaustedWithLeaveUnpaidKeepsThePeriodInErrorAndBillsTheNextCycle() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-owe", ON_THE_15TH, "9.99"));

      t.runUntil("2028-01-23T00:00:00Z");

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-15T00:00:00Z",
              "2028-01-16T00:00:00Z",
              "2028-01-18T00:00:00Z",
              "2028-01-20T00:00:00Z",
              "2028-01-22T00:00:00Z"));
      RecordInput last = periodRecords(t, 1).get(4);
      assertThat(last.changeId()).isEqualTo("cycle-1/charge-5");
      assertThat(last.event()).isEqualTo(HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(last.period().status()).isEqualTo(PeriodStatus.ERROR);
      assertThat(last.period().attempts()).isEqualTo(5);
      assertThat(last.next().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::date)
          .containsExactly(
              LocalDate.of(2028, 1, 16),
              LocalDate.of(2028, 1, 18),
              LocalDate.of(2028, 1, 20),
              LocalDate.of(2028, 1, 22),
              null);
      SubscriptionState waiting = workflow.state();
      assertThat(waiting.subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);
      assertThat(waiting.phase()).isEqualTo(Phase.WAITING_FOR_REMINDER);
      assertThat(waiting.waitingUntil()).isEqualTo(Instant.parse("2028-02-12T00:00:00Z"));

      t.runUntil("2028-02-20T00:00:00Z");
      assertAt(t.fake.reminders().get(1).startedAt(), "2028-02-12T00:00:00Z");
      assertAt(t.fake.charges().get(5).startedAt(), "2028-02-15T00:00:00Z");
      assertThat(t.fake.charges().get(5).input().idempotencyKey()).isEqualTo("charge:sub-owe:2:1");
      assertThat(periodRecords(t, 1)).hasSize(5);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void dunningThatEndsWithPausePausesUntilResumedAndSkipsThePeriodsMeanwhile() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(new DunningPolicy(List.of(2), FinalOutcome.PAUSE));
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-pause", ON_THE_15TH, "9.99"));

      t.runUntil("2028-03-16T00:00:00Z");

      assertThat(periodRecords(t, 1))
          .extracting(RecordInput::event)
          .containsExactly(HistoryEvent.PAYMENT_FAILED, HistoryEvent.DUNNING_EXHAUSTED);
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-pause:1:1", "charge:sub-pause:1:2");
      RecordInput paused =
          t.fake.writes().stream()
              .filter(w -> w.event() == HistoryEvent.SUBSCRIPTION_PAUSED)
              .findFirst()
              .orElseThrow();
      assertThat(paused.process()).isEqualTo(Process.RETRY);
      assertAt(paused.at(), "2028-01-17T00:00:00Z");
      assertThat(paused.next().lifecycle().pause().resumesOn()).isNull();
      assertThat(periodRecords(t, 2))
          .extracting(r -> r.period().status(), r -> r.period().dueDate())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(
                  PeriodStatus.PAUSED_SKIPPED, LocalDate.of(2028, 2, 15)));
      assertThat(periodRecords(t, 3))
          .extracting(r -> r.period().status())
          .containsExactly(PeriodStatus.PAUSED_SKIPPED);
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAUSED);
      assertThat(t.fake.reminders())
          .extracting(c -> c.input().messageId())
          .containsExactly("<reminder.1.sub-pause@billing>");

      SubscriptionState resumed = workflow.resume(new ResumeRequest("ops"));

      assertThat(resumed.subscription().status()).isEqualTo(SubscriptionStatus.ACTIVE);
      assertThat(resumed.subscription().cycle()).isEqualTo(4);
      assertThat(resumed.subscription().nextPaymentDate()).isEqualTo(LocalDate.of(2028, 4, 15));
      t.runUntil("2028-04-16T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-pause:1:1", "charge:sub-pause:1:2", "charge:sub-pause:4:1");
    }
  }

  @Test
  void thePolicyIsSnapshottedPerPeriodWhenItFirstFails() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      t.fake.declineCycle(2);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-snap", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");
      assertThat(t.fake.policyCalls()).hasSize(1);

      t.fake.policy(new DunningPolicy(List.of(10), FinalOutcome.CANCEL));
      t.runUntil("2028-02-10T00:00:00Z");

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-15T00:00:00Z",
              "2028-01-16T00:00:00Z",
              "2028-01-18T00:00:00Z",
              "2028-01-20T00:00:00Z",
              "2028-01-22T00:00:00Z"));
      assertThat(workflow.state().subscription().status()).isEqualTo(SubscriptionStatus.PAST_DUE);

      // Cycle 2 fails under the new policy: one retry 10 days later, then cancelled.
      SubscriptionState ended = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(t.fake.policyCalls()).extracting(c -> c.input().cycle()).containsExactly(1L, 2L);
      assertAllAt(
          t.fake.charges().subList(5, 7).stream().map(Call::startedAt).toList(),
          List.of("2028-02-15T00:00:00Z", "2028-02-25T00:00:00Z"));
      assertThat(ended.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void aNewPaymentMethodDuringDunningIsRecordedAndRetriedAtOnce() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineToken(BillingTestEnvironment.CARD.token());
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-new-card", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-15T12:00:00Z");

      SubscriptionState changed =
          workflow.changePaymentMethod(new PaymentMethodChange(MASTERCARD, "user:ada"));

      assertThat(changed.subscription().paymentMethod()).isEqualTo(MASTERCARD);
      assertThat(changed.subscription().version()).isEqualTo(4);
      t.runUntil("2028-01-25T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-new-card:1:1", "charge:sub-new-card:1:2");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().paymentMethod().token())
          .containsExactly("pm_card_visa", "pm_card_mastercard");
      assertAt(t.fake.charges().get(1).startedAt(), "2028-01-15T12:00:00Z");

      List<RecordInput> records = t.fake.records().stream().map(Call::input).toList();
      assertThat(records)
          .extracting(RecordInput::changeId)
          .containsExactly("create", "cycle-1/charge-1", "payment-method/v4", "cycle-1/charge-2");
      RecordInput change = records.get(2);
      assertThat(change.event()).isEqualTo(HistoryEvent.PAYMENT_METHOD_CHANGED);
      assertThat(change.process()).isEqualTo(Process.API);
      assertThat(change.actor()).isEqualTo("user:ada");
      assertThat(change.detail())
          .isEqualTo("payment method changed from Visa •••• 4242 to Mastercard •••• 4444");
      assertThat(change.period()).isNull();
      RecordInput paid = records.get(3);
      assertThat(paid.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(paid.process()).isEqualTo(Process.RETRY);
      assertThat(paid.receipt().paymentMask()).isEqualTo("Mastercard •••• 4444");
      assertThat(paid.next().version()).isEqualTo(5);
      assertThat(paid.next().status()).isEqualTo(SubscriptionStatus.ACTIVE);
    }
  }

  @Test
  void aChangeAcceptedWhileAnotherIsRecordedThenACancelEndsWithoutDeadlock() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-race", ON_THE_15TH, "9.99"));
      workflow.created();
      WorkflowStub stub = WorkflowStub.fromTyped(workflow);

      t.fake.holdRecord("payment-method/v2");
      WorkflowUpdateHandle<SubscriptionState> first =
          stub.startUpdate(
              "changePaymentMethod",
              WorkflowUpdateStage.ACCEPTED,
              SubscriptionState.class,
              new PaymentMethodChange(MASTERCARD, "user:ada"));
      t.fake.awaitHeldRecordStarted();
      PaymentMethod amex = new PaymentMethod("pm_card_amex", "Amex •••• 0005");
      WorkflowUpdateHandle<SubscriptionState> second =
          stub.startUpdate(
              "changePaymentMethod",
              WorkflowUpdateStage.ACCEPTED,
              SubscriptionState.class,
              new PaymentMethodChange(amex, "user:ada"));
      WorkflowUpdateHandle<SubscriptionState> cancel =
          stub.startUpdate(
              "cancel",
              WorkflowUpdateStage.ACCEPTED,
              SubscriptionState.class,
              new CancelRequest("moving", "user:ada"));
      t.fake.openRecord();

      assertThat(first.getResult(10, TimeUnit.SECONDS).subscription().paymentMethod())
          .isEqualTo(MASTERCARD);
      assertThat(second.getResult(10, TimeUnit.SECONDS).subscription().paymentMethod())
          .isEqualTo(amex);
      assertThat(cancel.getResult(10, TimeUnit.SECONDS).subscription().status())
          .isEqualTo(SubscriptionStatus.CANCELLED);
      SubscriptionState ended = stub.getResult(10, TimeUnit.SECONDS, SubscriptionState.class);
      assertThat(ended.phase()).isEqualTo(Phase.ENDED);
      assertThat(t.fake.records())
          .extracting(c -> c.input().changeId())
          .containsExactly("create", "payment-method/v2", "payment-method/v3", "cancel");
      assertThat(t.fake.charges()).isEmpty();
    }
  }

  @Test
  void aNewPaymentMethodOutsideDunningIsOnlyRecorded() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-swap", ON_THE_15TH, "9.99"));
      workflow.created();

      SubscriptionState changed =
          workflow.changePaymentMethod(new PaymentMethodChange(MASTERCARD, null));

      assertThat(changed.subscription().paymentMethod()).isEqualTo(MASTERCARD);
      assertThat(t.fake.records().get(1).input().actor()).isEqualTo("api");
      t.runUntil("2028-01-16T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().paymentMethod().token())
          .containsExactly("pm_card_mastercard");
      assertAt(t.fake.charges().get(0).startedAt(), "2028-01-15T00:00:00Z");
    }
  }

  @Test
  void cancelDuringDunningStopsIt() throws Exception {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.declineCycle(1);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-quit", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-17T00:00:00Z");
      assertThat(workflow.state().phase()).isEqualTo(Phase.WAITING_FOR_RETRY);

      t.fake.holdRecord("cancel");
      WorkflowUpdateHandle<SubscriptionState> cancelling =
          WorkflowStub.fromTyped(workflow)
              .startUpdate(
                  "cancel",
                  WorkflowUpdateStage.ACCEPTED,
                  SubscriptionState.class,
                  new CancelRequest("too expensive", "user:ada"));
      t.fake.awaitHeldRecordStarted();
      // While the cancellation is being recorded, a payment method change is refused.
      assertThatThrownBy(
              () -> workflow.changePaymentMethod(new PaymentMethodChange(MASTERCARD, "user:ada")))
          .isInstanceOf(WorkflowUpdateException.class)
          .cause()
          .isInstanceOf(ApplicationFailure.class)
          .satisfies(
              f -> {
                assertThat(((ApplicationFailure) f).getType())
                    .isEqualTo(UpdateRejections.TRANSITION_NOT_ALLOWED);
                assertThat(((ApplicationFailure) f).getOriginalMessage())
                    .isEqualTo("subscription is cancelled");
              });
      t.fake.openRecord();
      SubscriptionState cancelled = cancelling.getResult(10, TimeUnit.SECONDS);

      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(cancelled.lastOutcome()).isEqualTo("cancelled by user:ada: too expensive");
      RecordInput cancel = t.fake.records().get(t.fake.records().size() - 1).input();
      assertThat(cancel.changeId()).isEqualTo("cancel");
      assertThat(cancel.process()).isEqualTo(Process.API);
      assertThat(cancel.period().cycle()).isEqualTo(2);

      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-quit:1:1", "charge:sub-quit:1:2");
      assertThat(noticeInputs(t))
          .extracting(NotifyCustomerInput::kind)
          .containsOnly(NotifyCustomerInput.Kind.PAYMENT_FAILED);
    }
  }

  @Test
  void theNextCyclesReminderComesDueDuringDunningAndGoesOutOnTime() {
    // Due Jan 31; the next payment is due Feb 29 with a reminder 28 days before: Feb 1, the day of
    // the first retry. Both happen at midnight, the retry first.
    BillingSchedule longReminder =
        new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "UTC", 28);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      t.start(BillingTestEnvironment.requested("sub-overlap", longReminder, "9.99"));

      t.runUntil("2028-03-01T00:00:00Z");

      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of(
              "2028-01-31T00:00:00Z",
              "2028-02-01T00:00:00Z",
              "2028-02-03T00:00:00Z",
              "2028-02-05T00:00:00Z",
              "2028-02-29T00:00:00Z"));
      assertThat(t.fake.charges())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              "charge:sub-overlap:1:1",
              "charge:sub-overlap:1:2",
              "charge:sub-overlap:1:3",
              "charge:sub-overlap:1:4",
              "charge:sub-overlap:2:1");
      assertAllAt(
          t.fake.reminders().stream().map(Call::startedAt).toList(),
          List.of("2028-01-03T00:00:00Z", "2028-02-01T00:00:00Z"));
      assertThat(t.fake.reminders().get(1).input().paymentDate())
          .isEqualTo(LocalDate.of(2028, 2, 29));
      assertThat(t.fake.reminders().get(1).startedAt())
          .isAfterOrEqualTo(t.fake.charges().get(1).startedAt());
      // Versions stay in order across the interleaved writes of two periods.
      assertThat(t.fake.writes())
          .extracting(w -> w.next().version())
          .isSortedAccordingTo(Long::compare)
          .doesNotHaveDuplicates();
      assertThat(periodRecords(t, 1).get(3).event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
    }
  }

  @Test
  void aFailingNoticeNeitherFailsNorDelaysBilling() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.noticesFail();
      t.fake.script(1, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-mute", ON_THE_15TH, "9.99"));

      t.runUntil("2028-02-16T00:00:00Z");

      assertThat(t.fake.notices()).hasSize(1);
      assertAllAt(
          t.fake.charges().stream().map(Call::startedAt).toList(),
          List.of("2028-01-15T00:00:00Z", "2028-01-16T00:00:00Z", "2028-02-15T00:00:00Z"));
      assertThat(workflow.state().subscription().cycle()).isEqualTo(3);
    }
  }

  static List<RecordInput> periodRecords(BillingTestEnvironment t, long cycle) {
    return t.fake.records().stream()
        .map(Call::input)
        .filter(
            r ->
                r.period() != null
                    && r.period().cycle() == cycle
                    && r.period().status() != PeriodStatus.CANCELLED)
        .toList();
  }

  static List<RecordInput> receiptsOf(BillingTestEnvironment t, long cycle) {
    return t.fake.writes().stream()
        .filter(r -> r.receipt() != null && r.receipt().cycle() == cycle)
        .toList();
  }

  static List<NotifyCustomerInput> noticeInputs(BillingTestEnvironment t) {
    return t.fake.notices().stream().map(Call::input).toList();
  }

  static Map<String, String> succeeded(BillingTestEnvironment t) {
    return t.fake.succeededCharges();
  }
}
