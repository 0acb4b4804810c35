package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.OpenPeriod.State;
import dev.billing.workflows.activities.ChargeLookup;
import dev.billing.workflows.subscription.DunningSchedule;
import dev.billing.workflows.subscription.SubscriptionChanges;
import dev.billing.workflows.subscription.SubscriptionRestart;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting a subscription's workflow again from DynamoDB (reconciliation's repair). */
@Timeout(60)
class SubscriptionRestartTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  private static final Money PRICE = new Money(999, "USD");

  /** The record as the lost workflow left it: cycle 3 is next, cycle 2 unpaid. */
  private static Subscription record(SubscriptionStatus status) {
    return BillingTestEnvironment.requested("sub-back", ON_THE_15TH, "9.99")
        .withStatus(status)
        .scheduledFor(3)
        .withVersion(7);
  }

  private static Period period(
      long cycle, PeriodStatus status, int attempts, String txn, String code) {
    return new Period(
        "acc-7",
        "sub-back",
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

  @Test
  void anUnpaidPeriodWithRetriesLeftGoesBackIntoDunningFromItsDueDate() {
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record(SubscriptionStatus.PAST_DUE),
            List.of(
                period(2, PeriodStatus.ERROR, 2, null, "insufficient_funds"),
                period(1, PeriodStatus.COMPLETED, 1, "txn_1", null)),
            DunningPolicy.DEFAULT,
            Instant.parse("2028-02-18T12:00:00Z"));

    assertThat(input.recorded()).isTrue();
    assertThat(input.subscription().cycle()).isEqualTo(3);
    assertThat(input.collections().open()).hasSize(1);
    OpenPeriod dunning = input.collections().open().get(0);
    assertThat(dunning.cycle()).isEqualTo(2);
    assertThat(dunning.state()).isEqualTo(State.DUNNING);
    assertThat(dunning.attempts()).isEqualTo(2);
    assertThat(dunning.outcomeUnknown()).as("a decline is a definite answer").isFalse();
    assertThat(dunning.dunningFrom()).isEqualTo(LocalDate.of(2028, 2, 15));
    assertThat(dunning.retriesUsed()).as("Feb 16 and Feb 18 have come").isEqualTo(2);
    assertThat(DunningSchedule.nextRetryAt(ON_THE_15TH, dunning))
        .isEqualTo(Instant.parse("2028-02-20T00:00:00Z"));
    assertThat(input.collections().settled())
        .containsExactly(new SettledCharge(1, 1, "charge:sub-back:1:1", "txn_1", PRICE));
  }

  @Test
  void anUnansweredAttemptIsLookedUpBeforeAnyNewOneAndAnExhaustedPeriodAsksForItsNextKey() {
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record(SubscriptionStatus.PAST_DUE),
            List.of(
                period(1, PeriodStatus.ERROR, 5, null, "card_declined"),
                period(2, PeriodStatus.ERROR, 1, null, SubscriptionChanges.GATEWAY_UNAVAILABLE)),
            DunningPolicy.DEFAULT,
            Instant.parse("2028-02-15T12:00:00Z"));

    assertThat(input.collections().open()).extracting(OpenPeriod::cycle).containsExactly(1L, 2L);
    OpenPeriod unanswered = input.collections().open().get(1);
    assertThat(unanswered.outcomeUnknown()).isTrue();
    assertThat(unanswered.amount()).isEqualTo(PRICE);
    assertThat(unanswered.lastKey("sub-back")).isEqualTo("charge:sub-back:2:1");
    // Cycle 1's retries (Jan 16 to 22) are all past, but the lost run may have sent attempt 6 (a
    // manual payment): that key is asked about at once, and only then is the period left owed.
    OpenPeriod usedUp = input.collections().open().get(0);
    assertThat(usedUp.state()).isEqualTo(State.RESOLVING);
    assertThat(usedUp.outcomeUnknown()).as("attempt 5 was declined").isFalse();
    assertThat(usedUp.settleBy()).isEqualTo(Instant.parse("2028-02-15T12:00:00Z"));
    assertThat(input.collections().unverifiedKeys()).contains("charge:sub-back:1:6");
    assertThat(input.collections().unpaid()).isEmpty();
  }

  @Test
  void keysTheLostRunMayHaveSentAreLookedUpBeforeTheyAreSent() {
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record(SubscriptionStatus.PAST_DUE),
            List.of(
                period(2, PeriodStatus.ERROR, 2, null, "insufficient_funds"),
                period(1, PeriodStatus.ERROR, 5, null, "card_declined")),
            DunningPolicy.DEFAULT,
            Instant.parse("2028-02-18T12:00:00Z"));

    assertThat(input.collections().unverifiedKeys())
        .containsExactlyInAnyOrder(
            "charge:sub-back:3:1", "charge:sub-back:2:3", "charge:sub-back:1:6");
  }

  @Test
  void anUnknownOutcomeIsNeverForgottenEvenWhenTheScheduleIsUsedUpOrTheDebitWasNotFound() {
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record(SubscriptionStatus.PAST_DUE),
            List.of(
                period(1, PeriodStatus.ERROR, 5, null, SubscriptionChanges.GATEWAY_UNAVAILABLE),
                period(2, PeriodStatus.ERROR, 1, null, SubscriptionChanges.CHARGE_NOT_FOUND)),
            DunningPolicy.DEFAULT,
            Instant.parse("2028-02-15T12:00:00Z"));

    assertThat(input.collections().unpaid()).isEmpty();
    assertThat(input.collections().open())
        .extracting(OpenPeriod::cycle, OpenPeriod::state, OpenPeriod::outcomeUnknown)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, State.RESOLVING, true),
            org.assertj.core.groups.Tuple.tuple(2L, State.DUNNING, true));
    assertThat(input.collections().open().get(0).settleBy())
        .as("asked at once")
        .isEqualTo(Instant.parse("2028-02-15T12:00:00Z"));
  }

  @Test
  void aCancelledRecordCarriesNoDunningButStillSettlesWhatIsPending() {
    SubscriptionInput input =
        SubscriptionRestart.fromRecord(
            record(SubscriptionStatus.CANCELLED),
            List.of(
                period(2, PeriodStatus.ERROR, 1, null, "insufficient_funds"),
                period(3, PeriodStatus.PENDING_SETTLEMENT, 1, null, null)),
            DunningPolicy.DEFAULT,
            Instant.parse("2028-03-16T00:00:00Z"));

    assertThat(input.collections().open())
        .extracting(OpenPeriod::cycle, OpenPeriod::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(3L, State.PENDING_SETTLEMENT));
    assertThat(input.collections().open().get(0).settleBy())
        .isEqualTo(Instant.parse("2028-03-16T00:00:00Z"));
  }

  @Test
  void aRestartedRunLooksUpThePendingDebitAtOnceAndRecordsItsSettlement() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-02-20T00:00:00Z")) {
      t.fake.gatewaySays(
          "charge:sub-back:2:1",
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              "txn_sub-back_2",
              Instant.parse("2028-02-18T00:00:00Z"),
              null,
              null));
      Subscription stored = record(SubscriptionStatus.ACTIVE);
      SubscriptionInput input =
          SubscriptionRestart.fromRecord(
              stored,
              List.of(period(2, PeriodStatus.PENDING_SETTLEMENT, 1, null, null)),
              DunningPolicy.DEFAULT,
              t.now());
      SubscriptionWorkflow workflow =
          t.client.newWorkflowStub(
              SubscriptionWorkflow.class,
              WorkflowOptions.newBuilder()
                  .setWorkflowId("subscription-sub-back")
                  .setTaskQueue(TaskQueues.BILLING)
                  .setTypedSearchAttributes(SubscriptionVisibility.startAttributes(stored, null))
                  .build());
      WorkflowClient.start(workflow::run, input);

      t.runUntil("2028-02-21T00:00:00Z");

      assertThat(t.fake.lookups())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly("charge:sub-back:2:1");
      RecordInput settled = t.fake.records().get(0).input();
      assertThat(settled.event()).isEqualTo(HistoryEvent.PAYMENT_SUCCEEDED);
      assertThat(settled.previous().version()).isEqualTo(7);
      assertThat(settled.period().cycle()).isEqualTo(2);
      assertThat(settled.period().status()).isEqualTo(PeriodStatus.COMPLETED);
      assertThat(settled.receipt().transactionId()).isEqualTo("txn_sub-back_2");
      assertThat(settled.receipt().amount()).isEqualTo(PRICE);
      assertThat(t.fake.charges()).as("cycle 3 is not due before Mar 15").isEmpty();
      assertThat(workflow.state().subscription().cycle()).isEqualTo(3);
    }
  }
}
