package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingSchedule;
import dev.billing.domain.Money;
import dev.billing.domain.Pause;
import dev.billing.domain.Term;
import dev.billing.workflows.SubscriptionState.Phase;
import dev.billing.workflows.UnpaidPeriod;
import dev.billing.workflows.subscription.RunPlanner.Action;
import dev.billing.workflows.subscription.RunPlanner.Cycle;
import dev.billing.workflows.subscription.RunPlanner.Next;
import dev.billing.workflows.subscription.RunPlanner.Periods;
import dev.billing.workflows.subscription.RunPlanner.Step;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a run does next: plain unit tests of the planning the workflow's loops follow. */
class RunPlannerTest {

  static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  static final Instant REMIND = Instant.parse("2028-02-12T00:00:00Z");
  static final Instant DUE = Instant.parse("2028-02-15T00:00:00Z");
  static final Cycle CYCLE_2 = new Cycle(REMIND, DUE, null);
  static final Periods NOTHING = new Periods(false, false, null, false, null);

  static Instant at(String instant) {
    return Instant.parse(instant);
  }

  @Test
  void theFirstStepIsTheEndOfACancellationAtPeriodEndThenTheReminderUnlessSentThenTheCharge() {
    assertThat(RunPlanner.firstStep(true, true, true)).isEqualTo(Step.END);
    assertThat(RunPlanner.firstStep(false, true, true)).isEqualTo(Step.REMIND);
    assertThat(RunPlanner.firstStep(false, true, false))
        .as("reminded before a pause")
        .isEqualTo(Step.CHARGE);
    assertThat(RunPlanner.firstStep(false, false, true)).isEqualTo(Step.CHARGE);
  }

  @Test
  void aCycleSleepsUntilItsReminderThenRemindsThenSleepsUntilItsDueInstantThenCharges() {
    assertThat(RunPlanner.cycle(at("2028-02-01T00:00:00Z"), Step.REMIND, CYCLE_2, NOTHING))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_REMINDER, REMIND));
    assertThat(RunPlanner.cycle(REMIND, Step.REMIND, CYCLE_2, NOTHING))
        .isEqualTo(Next.now(Action.REMIND));
    assertThat(RunPlanner.cycle(REMIND, Step.CHARGE, CYCLE_2, NOTHING))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_PAYMENT, DUE));
    assertThat(RunPlanner.cycle(DUE, Step.CHARGE, CYCLE_2, NOTHING))
        .isEqualTo(Next.now(Action.CHARGE));
    assertThat(RunPlanner.cycle(DUE, Step.DONE, CYCLE_2, NOTHING))
        .isEqualTo(Next.now(Action.FINISH));
  }

  @Test
  void anIncompleteSubscriptionsNextCycleWaitsForItsFirstPayment() {
    Instant retry = at("2028-02-17T00:00:00Z");
    Periods firstPaymentRetry = new Periods(false, false, retry, false, null);
    // Reminder and due instant have come: neither is acted on while the first payment is open.
    assertThat(RunPlanner.cycle(DUE, Step.REMIND, CYCLE_2, firstPaymentRetry, true))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_RETRY, retry));
    assertThat(RunPlanner.cycle(DUE, Step.CHARGE, CYCLE_2, firstPaymentRetry, true))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_RETRY, retry));
    assertThat(
            RunPlanner.cycle(
                retry, Step.CHARGE, CYCLE_2, new Periods(true, false, retry, false, null), true))
        .isEqualTo(Next.now(Action.SERVE_PERIOD));
    // The run's own first attempt is done: it continues as new with the period.
    assertThat(RunPlanner.cycle(DUE, Step.DONE, CYCLE_2, firstPaymentRetry, true))
        .isEqualTo(Next.now(Action.FINISH));
    // Collected (no longer held): the late reminder goes out at once.
    assertThat(RunPlanner.cycle(DUE, Step.REMIND, CYCLE_2, NOTHING, false))
        .isEqualTo(Next.now(Action.REMIND));
  }

  @Test
  void onATieAnEarlierPeriodsRetryGoesFirstThenAStalePeriodThenTheCycle() {
    Periods retryAndStale = new Periods(true, true, DUE, false, DUE);
    assertThat(RunPlanner.cycle(DUE, Step.CHARGE, CYCLE_2, retryAndStale))
        .isEqualTo(Next.now(Action.SERVE_PERIOD));
    Periods stale = new Periods(false, true, null, false, DUE);
    assertThat(RunPlanner.cycle(DUE, Step.CHARGE, CYCLE_2, stale))
        .isEqualTo(Next.now(Action.MARK_STALE));
  }

  @Test
  void aCycleSleepsUntilWhicheverComesFirstOfItsStepAPeriodsActionAndAStaleDate() {
    Instant now = at("2028-02-01T00:00:00Z");
    Instant retry = at("2028-02-05T00:00:00Z");
    Instant stale = at("2028-02-04T00:00:00Z");
    assertThat(
            RunPlanner.cycle(
                now, Step.REMIND, CYCLE_2, new Periods(false, false, retry, false, null)))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_RETRY, retry));
    assertThat(
            RunPlanner.cycle(
                now, Step.REMIND, CYCLE_2, new Periods(false, false, retry, true, null)))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_SETTLEMENT, retry));
    assertThat(
            RunPlanner.cycle(
                now, Step.REMIND, CYCLE_2, new Periods(false, false, retry, false, stale)))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_RETRY, stale));
    assertThat(
            RunPlanner.cycle(
                now,
                Step.REMIND,
                CYCLE_2,
                new Periods(false, false, at("2028-03-01T00:00:00Z"), false, null)))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_REMINDER, REMIND));
  }

  @Test
  void aCancellationAtPeriodEndEndsAtTheStartOfItsDay() {
    Cycle ending = new Cycle(REMIND, DUE, DUE);
    assertThat(RunPlanner.cycle(REMIND, Step.END, ending, NOTHING))
        .isEqualTo(Next.sleep(Phase.WAITING_FOR_PAYMENT, DUE));
    assertThat(RunPlanner.cycle(DUE, Step.END, ending, NOTHING))
        .isEqualTo(Next.now(Action.END_AT_PERIOD_END));
  }

  @Test
  void aPauseForTwoCyclesSkipsTheCycleDueMeanwhileAndResumesAtTheReminderOfTheRestartCycle() {
    Pause pause = new Pause(LocalDate.parse("2028-02-01"), LocalDate.parse("2028-04-15"), null);
    assertThat(RunPlanner.skipAt(ON_THE_15TH, pause, 2)).isEqualTo(DUE);
    assertThat(RunPlanner.resumeAt(ON_THE_15TH, pause, 2)).isEqualTo(at("2028-04-12T00:00:00Z"));
    assertThat(RunPlanner.skipAt(ON_THE_15TH, pause, 4))
        .as("the restart cycle is not skipped")
        .isNull();
    assertThat(RunPlanner.paused(at("2028-02-01T00:00:00Z"), ON_THE_15TH, pause, 2, NOTHING))
        .isEqualTo(Next.sleep(Phase.PAUSED, DUE));
    assertThat(RunPlanner.paused(DUE, ON_THE_15TH, pause, 2, NOTHING))
        .isEqualTo(Next.now(Action.SKIP));
    assertThat(RunPlanner.paused(at("2028-04-12T00:00:00Z"), ON_THE_15TH, pause, 4, NOTHING))
        .isEqualTo(Next.now(Action.RESUME));
  }

  @Test
  void anOpenEndedPauseSleepsUntilTheNextSkipAndASettlementDueGoesFirst() {
    Pause open = new Pause(LocalDate.parse("2028-02-01"), null, null);
    assertThat(RunPlanner.resumeAt(ON_THE_15TH, open, 2)).isNull();
    Instant settles = at("2028-02-03T00:00:00Z");
    assertThat(
            RunPlanner.paused(
                at("2028-02-01T00:00:00Z"),
                ON_THE_15TH,
                open,
                2,
                new Periods(false, false, settles, true, null)))
        .isEqualTo(Next.sleep(Phase.PAUSED, settles));
    assertThat(
            RunPlanner.paused(DUE, ON_THE_15TH, open, 2, new Periods(true, false, DUE, true, null)))
        .isEqualTo(Next.now(Action.SERVE_PERIOD));
  }

  @Test
  void aCycleDueAtTheVeryInstantThePauseResumesIsSkippedBeforeTheResume() {
    // Billing on the 28th, reminded 28 days before: the restart cycle's reminder falls on the due
    // date of the skipped cycle in February.
    BillingSchedule on28th =
        new BillingSchedule(YearMonth.of(2027, 1), 28, Term.MONTHLY, "UTC", 28);
    Pause pause = new Pause(LocalDate.parse("2027-02-01"), LocalDate.parse("2027-03-28"), null);
    Instant februaryDue = on28th.dueAt(2);
    assertThat(RunPlanner.resumeAt(on28th, pause, 2)).isEqualTo(februaryDue);
    assertThat(RunPlanner.paused(februaryDue, on28th, pause, 2, NOTHING))
        .isEqualTo(Next.now(Action.SKIP));
    assertThat(RunPlanner.paused(februaryDue, on28th, pause, 3, NOTHING))
        .isEqualTo(Next.now(Action.RESUME));
  }

  @Test
  void anUnpaidPeriodTurnsStaleAtTheStartOfItsDueDatePlusItsStaleAge() {
    UnpaidPeriod never =
        new UnpaidPeriod(1, 4, Money.parse("10.00", "USD"), LocalDate.parse("2028-01-15"), 0, "x");
    UnpaidPeriod month =
        new UnpaidPeriod(2, 4, Money.parse("10.00", "USD"), LocalDate.parse("2028-02-15"), 30, "x");
    assertThat(RunPlanner.staleAt(ON_THE_15TH, never)).isNull();
    assertThat(RunPlanner.nextStaleAt(ON_THE_15TH, List.of(never, month)))
        .isEqualTo(at("2028-03-16T00:00:00Z"));
    assertThat(
            RunPlanner.firstStale(ON_THE_15TH, List.of(never, month), at("2028-03-15T23:59:59Z")))
        .isNull();
    assertThat(
            RunPlanner.firstStale(ON_THE_15TH, List.of(never, month), at("2028-03-16T00:00:00Z")))
        .isEqualTo(month);
  }
}
