package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** Which period a change leaves SCHEDULED: exact cycle, due date and amount. */
class ScheduledPeriodsTest {
  private static final BillingSchedule ON_THE_31ST =
      new BillingSchedule(YearMonth.of(2027, 12), 31, Term.MONTHLY, "Europe/Berlin", 3);
  private static final Instant AT = Instant.parse("2028-01-31T09:00:00Z");

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  /** Cycle 1 paid on 2027-12-31; the record is on cycle 2, due 2028-01-31. */
  private static Subscription onCycle2() {
    return new Subscription(
        "acc-1",
        "sub-1",
        "BASIC",
        usd("19.99"),
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "Visa •••• 4242"),
        ON_THE_31ST,
        SubscriptionStatus.ACTIVE,
        2,
        LocalDate.parse("2028-01-28"),
        LocalDate.parse("2028-01-31"),
        null,
        Instant.parse("2027-12-31T00:00:00Z"),
        Instant.parse("2027-12-01T00:00:00Z"),
        7,
        null,
        "en-US",
        Lifecycle.NONE);
  }

  private static RecordInput change(
      Subscription previous, Subscription next, HistoryEvent event, Period period) {
    return new RecordInput(
        "change-1", previous, next, event, Process.API, "test", "detail", period, null, AT);
  }

  private static Period written(Subscription sub, long cycle, PeriodStatus status) {
    return new Period(
        sub.accountId(),
        sub.subscriptionId(),
        cycle,
        sub.schedule().dueDate(cycle),
        sub.price(),
        status,
        1,
        status == PeriodStatus.COMPLETED ? "txn_1" : null,
        null,
        null,
        AT,
        null);
  }

  @Test
  void aCreatedSubscriptionSchedulesItsFirstCharge() {
    Subscription created = onCycle2().scheduledFor(1).withVersion(1);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(change(null, created, HistoryEvent.SUBSCRIPTION_CREATED, null));

    assertThat(plan.schedule())
        .isEqualTo(
            new Period(
                "acc-1",
                "sub-1",
                1,
                LocalDate.parse("2027-12-31"),
                usd("19.99"),
                PeriodStatus.SCHEDULED,
                0,
                null,
                null,
                null,
                AT,
                null));
    assertThat(plan.unschedule()).isNull();
  }

  @Test
  void aPaidCycleSchedulesTheNextOnTheClampedDateWithTheBalanceOwed() {
    Subscription before = onCycle2();
    Subscription after =
        before
            .scheduledFor(3)
            .withLifecycle(Lifecycle.NONE.withBalance(usd("5.00")))
            .withVersion(8);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(
            change(
                before,
                after,
                HistoryEvent.PAYMENT_SUCCEEDED,
                written(before, 2, PeriodStatus.COMPLETED)));

    assertThat(plan.schedule().cycle()).isEqualTo(3);
    assertThat(plan.schedule().dueDate()).isEqualTo(LocalDate.parse("2028-02-29"));
    assertThat(plan.schedule().amount()).isEqualTo(usd("24.99"));
    assertThat(plan.schedule().status()).isEqualTo(PeriodStatus.SCHEDULED);
    // Cycle 2 was the scheduled one, and this change writes it itself (collected).
    assertThat(plan.unschedule()).isNull();
  }

  @Test
  void aChangeOfTheSameCycleRewritesItsScheduleWithTheNewAmount() {
    Subscription before = onCycle2();
    Subscription after = before.withPlan("PRO", usd("49.00")).withVersion(8);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(change(before, after, HistoryEvent.PLAN_CHANGED, null));

    assertThat(plan.schedule().cycle()).isEqualTo(2);
    assertThat(plan.schedule().amount()).isEqualTo(usd("49.00"));
    assertThat(plan.unschedule()).isNull();
  }

  @Test
  void aChangeThatWritesTheScheduledCycleItselfSchedulesNothingOverIt() {
    Subscription before = onCycle2();
    Subscription after = before.withStatus(SubscriptionStatus.CANCELLED).withVersion(8);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(
            change(
                before,
                after,
                HistoryEvent.SUBSCRIPTION_CANCELLED,
                written(before, 2, PeriodStatus.CANCELLED)));

    assertThat(plan).isEqualTo(ScheduledPeriods.Plan.NONE);
  }

  @Test
  void aCancellationAtThePeriodsEndRemovesTheScheduledCharge() {
    Subscription before = onCycle2();
    Subscription after =
        before
            .withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.parse("2028-01-31")))
            .withVersion(8);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(change(before, after, HistoryEvent.CANCELLATION_SCHEDULED, null));

    assertThat(plan.schedule()).isNull();
    assertThat(plan.unschedule()).isEqualTo(2);
  }

  @Test
  void anOpenEndedPauseRemovesItAndTheResumeSchedulesItAgain() {
    Subscription active = onCycle2();
    Subscription paused =
        active
            .withStatus(SubscriptionStatus.PAUSED)
            .withLifecycle(
                Lifecycle.NONE.withPause(new Pause(LocalDate.parse("2028-01-10"), null, "travel")))
            .withDates(null, null)
            .withVersion(8);

    ScheduledPeriods.Plan pause =
        ScheduledPeriods.of(change(active, paused, HistoryEvent.SUBSCRIPTION_PAUSED, null));
    ScheduledPeriods.Plan resume =
        ScheduledPeriods.of(
            change(
                paused,
                active.scheduledFor(4).withVersion(9),
                HistoryEvent.SUBSCRIPTION_RESUMED,
                null));

    assertThat(pause.schedule()).isNull();
    assertThat(pause.unschedule()).isEqualTo(2);
    assertThat(resume.schedule().cycle()).isEqualTo(4);
    assertThat(resume.schedule().dueDate()).isEqualTo(LocalDate.parse("2028-03-31"));
    assertThat(resume.unschedule()).isNull();
  }

  @Test
  void aMoveToALaterCycleRemovesTheOneNoLongerComing() {
    Subscription before = onCycle2();
    Subscription after =
        before
            .withStatus(SubscriptionStatus.PAUSED)
            .withDates(null, LocalDate.parse("2028-03-31"))
            .withVersion(8);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(change(before, after, HistoryEvent.SUBSCRIPTION_PAUSED, null));

    assertThat(plan.schedule().cycle()).isEqualTo(4);
    assertThat(plan.unschedule()).isEqualTo(2);
  }

  @Test
  void anEndedSubscriptionSchedulesNothing() {
    Subscription ended = onCycle2().withStatus(SubscriptionStatus.CANCELLED);

    ScheduledPeriods.Plan plan =
        ScheduledPeriods.of(
            change(ended, ended.withVersion(8), HistoryEvent.PAYMENT_REFUNDED, null));

    assertThat(plan).isEqualTo(ScheduledPeriods.Plan.NONE);
  }
}
