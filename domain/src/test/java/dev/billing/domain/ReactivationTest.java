package dev.billing.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.Reactivation.Refusal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Who may be reactivated and from which cycle: a 9.99 USD subscription billed on the 31st in Paris,
 * cycle 1 paid on 2027-01-31, cancelled on 2027-02-10 (cycle 2, due 2027-02-28, never billed).
 */
class ReactivationTest {
  private static final Money PRICE = Money.parse("9.99", "USD");
  private static final BillingSchedule PARIS_31ST =
      new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
  private static final Instant CANCELLED_AT = Instant.parse("2027-02-10T09:00:00Z");

  private static Subscription cancelled() {
    return new Subscription(
        "acc-1",
        "sub-1",
        "plus",
        PRICE,
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "visa ****4242"),
        PARIS_31ST,
        SubscriptionStatus.CANCELLED,
        2,
        null,
        null,
        Instant.parse("2027-01-27T23:00:00Z"),
        Instant.parse("2027-01-30T23:00:00Z"),
        Instant.parse("2027-01-01T00:00:00Z"),
        7,
        null);
  }

  private static Period period(long cycle, PeriodStatus status, Instant at) {
    return new Period(
        "acc-1",
        "sub-1",
        cycle,
        PARIS_31ST.dueDate(cycle),
        PRICE,
        status,
        status == PeriodStatus.CANCELLED ? 0 : 1,
        status == PeriodStatus.COMPLETED ? "ch_1" : null,
        status == PeriodStatus.ERROR ? "card_declined" : null,
        null,
        at);
  }

  private static List<Period> paidThenCancelled() {
    return List.of(
        period(1, PeriodStatus.COMPLETED, Instant.parse("2027-01-30T23:00:00Z")),
        period(2, PeriodStatus.CANCELLED, CANCELLED_AT));
  }

  private static Optional<Refusal> refusal(Subscription sub, List<Period> periods, String now) {
    return Reactivation.refusal(sub, periods, Instant.parse(now), Reactivation.DEFAULT_WINDOW)
        .map(Reactivation.Refused::reason);
  }

  @Test
  void theWindowRunsThirtyDaysFromTheCancellationInstant() {
    assertThat(Reactivation.cancelledAt(cancelled(), paidThenCancelled())).contains(CANCELLED_AT);
    assertThat(refusal(cancelled(), paidThenCancelled(), "2027-03-12T09:00:00Z")).isEmpty();
    assertThat(refusal(cancelled(), paidThenCancelled(), "2027-03-12T09:00:00.001Z"))
        .contains(Refusal.WINDOW_CLOSED);
    assertThat(
            Reactivation.refusal(
                    cancelled(),
                    paidThenCancelled(),
                    Instant.parse("2027-03-20T00:00:00Z"),
                    Duration.ofDays(60))
                .map(Reactivation.Refused::reason))
        .isEmpty();
  }

  @Test
  void withoutItsCancellationOnRecordTheWindowIsClosed() {
    List<Period> paidOnly = List.of(paidThenCancelled().get(0));

    assertThat(refusal(cancelled(), paidOnly, "2027-02-11T00:00:00Z"))
        .contains(Refusal.WINDOW_CLOSED);
  }

  @Test
  void aSubscriptionThatIsNotCancelledIsRefusedButOneCancellingAtPeriodEndIsNot() {
    Subscription active = cancelled().withStatus(SubscriptionStatus.ACTIVE);
    Subscription cancelling =
        active.withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.of(2027, 2, 28)));

    assertThat(refusal(active, List.of(), "2027-02-11T00:00:00Z")).contains(Refusal.NOT_CANCELLED);
    assertThat(refusal(cancelling, List.of(), "2027-02-11T00:00:00Z")).isEmpty();
  }

  @Test
  void aSubscriptionCancelledBeforeItsFirstPaymentIsNeverReactivated() {
    Subscription neverPaid = cancelled().withLastPaymentAt(null);

    assertThat(refusal(neverPaid, paidThenCancelled(), "2027-02-11T00:00:00Z"))
        .contains(Refusal.NEVER_PAID);
  }

  @Test
  void aSubscriptionWhoseFirstPaymentExpiredIsNeverReactivated() {
    Subscription expired = cancelled().withStatus(SubscriptionStatus.INCOMPLETE_EXPIRED);

    assertThat(refusal(expired, paidThenCancelled(), "2027-02-11T00:00:00Z"))
        .contains(Refusal.NOT_CANCELLED);
  }

  @Test
  void aPeriodLeftUnpaidRefusesItAndAWaivedOneDoesNot() {
    List<Period> unpaid =
        List.of(
            period(1, PeriodStatus.ERROR, Instant.parse("2027-02-07T00:00:00Z")),
            period(2, PeriodStatus.CANCELLED, CANCELLED_AT));
    List<Period> waived =
        List.of(
            period(1, PeriodStatus.WAIVED, Instant.parse("2027-02-07T00:00:00Z")),
            period(2, PeriodStatus.CANCELLED, CANCELLED_AT));

    assertThat(refusal(cancelled(), unpaid, "2027-02-11T00:00:00Z"))
        .contains(Refusal.UNPAID_PERIOD);
    assertThat(refusal(cancelled(), waived, "2027-02-11T00:00:00Z")).isEmpty();
  }

  @Test
  void moneyStillMovingRefusesIt() {
    Period settling = period(1, PeriodStatus.PENDING_SETTLEMENT, CANCELLED_AT);
    Period refundUnanswered =
        new Period(
            "acc-1",
            "sub-1",
            1,
            PARIS_31ST.dueDate(1),
            PRICE,
            PeriodStatus.COMPLETED,
            1,
            "ch_1",
            null,
            null,
            CANCELLED_AT,
            null,
            List.of(
                new PeriodRefund(
                    "refund:sub-1:1:req:abc", "req-1", "ch_1", PRICE, CANCELLED_AT, null)));
    Period cancelledPeriod = period(2, PeriodStatus.CANCELLED, CANCELLED_AT);

    assertThat(refusal(cancelled(), List.of(settling, cancelledPeriod), "2027-02-11T00:00:00Z"))
        .contains(Refusal.PAYMENT_UNRESOLVED);
    assertThat(
            refusal(
                cancelled(), List.of(refundUnanswered, cancelledPeriod), "2027-02-11T00:00:00Z"))
        .contains(Refusal.PAYMENT_UNRESOLVED);
  }

  @Test
  void aRefundedPeriodInServiceRefusesItUntilItsPaidThroughDate() {
    Period refunded =
        new Period(
            "acc-1",
            "sub-1",
            1,
            PARIS_31ST.dueDate(1),
            PRICE,
            PeriodStatus.REFUNDED,
            1,
            "ch_1",
            null,
            null,
            CANCELLED_AT,
            Money.parse("6.06", "USD"),
            List.of(
                new PeriodRefund(
                    "refund:sub-1:1:req:abc",
                    "req-1",
                    "ch_1",
                    Money.parse("6.06", "USD"),
                    CANCELLED_AT,
                    "re_1")));
    List<Period> periods = List.of(refunded, period(2, PeriodStatus.CANCELLED, CANCELLED_AT));

    // Feb 27 in Paris: period 1 still runs (to Feb 28), and its unused days were given back.
    assertThat(refusal(cancelled(), periods, "2027-02-27T22:59:59Z"))
        .contains(Refusal.REFUNDED_PERIOD);
    // Feb 28 in Paris: cycle 2 is due, nothing refunded is served again.
    assertThat(refusal(cancelled(), periods, "2027-02-27T23:00:00Z")).isEmpty();
  }

  @Test
  void billingRestartsWithTheFirstDueDateOnOrAfterTodayFromTheAnchor() {
    Subscription ended = cancelled();

    // Still in the paid period: cycle 2, Feb 28 (the 31st clamped), nothing charged now.
    assertThat(Reactivation.resumeCycle(ended, LocalDate.of(2027, 2, 20))).isEqualTo(2);
    // On the paid-through date: cycle 2 is charged that day.
    assertThat(Reactivation.resumeCycle(ended, LocalDate.of(2027, 2, 28))).isEqualTo(2);
    // After it: cycle 3 on Mar 31, never "today + 30 days" and never Mar 28.
    assertThat(Reactivation.resumeCycle(ended, LocalDate.of(2027, 3, 1))).isEqualTo(3);
    assertThat(PARIS_31ST.dueDate(3)).isEqualTo(LocalDate.of(2027, 3, 31));
  }

  @Test
  void theReactivatedRecordBillsOnItsAnchorAndRemindsOnlyWhenTheReminderIsAhead() {
    Instant feb20 = Instant.parse("2027-02-20T10:00:00Z");
    Subscription ahead = Reactivation.reactivated(cancelled(), 2, PARIS_31ST.reminderAt(2), feb20);

    assertThat(ahead.status()).isEqualTo(SubscriptionStatus.ACTIVE);
    assertThat(ahead.cycle()).isEqualTo(2);
    assertThat(ahead.nextPaymentDate()).isEqualTo(LocalDate.of(2027, 2, 28));
    assertThat(ahead.nextReminderDate()).isEqualTo(LocalDate.of(2027, 2, 25));
    assertThat(ahead.version()).isEqualTo(7);

    Instant feb26 = Instant.parse("2027-02-26T10:00:00Z");
    Subscription late = Reactivation.reactivated(cancelled(), 2, PARIS_31ST.reminderAt(2), feb26);
    assertThat(late.nextReminderDate()).isNull();
    assertThat(late.nextPaymentDate()).isEqualTo(LocalDate.of(2027, 2, 28));
  }

  @Test
  void aTrialNeverChargedIsATrialAgainAndAPauseItEndedInIsOver() {
    Subscription trialPaused =
        new Subscription(
                "acc-1",
                "sub-1",
                "plus",
                PRICE,
                "ada@example.com",
                new PaymentMethod("pm_card_visa", "visa ****4242"),
                PARIS_31ST,
                SubscriptionStatus.CANCELLED,
                1,
                null,
                null,
                null,
                null,
                Instant.parse("2027-01-01T00:00:00Z"),
                3,
                null)
            .withLifecycle(
                new Lifecycle(
                    LocalDate.of(2027, 1, 31),
                    new Pause(LocalDate.of(2027, 1, 5), null, null),
                    null,
                    null,
                    null));

    Subscription next =
        Reactivation.reactivated(
            trialPaused, 1, PARIS_31ST.reminderAt(1), Instant.parse("2027-01-10T00:00:00Z"));

    assertThat(next.status()).isEqualTo(SubscriptionStatus.TRIALING);
    assertThat(next.lifecycle().pause()).isNull();
    assertThat(next.lifecycle().trialEndsOn()).isEqualTo(LocalDate.of(2027, 1, 31));
    // Back after the trial's end: its first charge is a regular one, not a trial's.
    Subscription late =
        Reactivation.reactivated(
            trialPaused, 2, PARIS_31ST.reminderAt(2), Instant.parse("2027-02-05T00:00:00Z"));
    assertThat(late.status()).isEqualTo(SubscriptionStatus.ACTIVE);
  }

  @Test
  void takingBackACancellationAtPeriodEndRestoresTheDatesButNotASentReminder() {
    Subscription cancelling =
        cancelled()
            .withStatus(SubscriptionStatus.ACTIVE)
            .withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.of(2027, 2, 28)));
    Instant feb20 = Instant.parse("2027-02-20T10:00:00Z");

    Subscription back =
        Reactivation.cancellationTakenBack(cancelling, PARIS_31ST.reminderAt(2), feb20);
    assertThat(back.lifecycle().cancelsOn()).isNull();
    assertThat(back.status()).isEqualTo(SubscriptionStatus.ACTIVE);
    assertThat(back.nextReminderDate()).isEqualTo(LocalDate.of(2027, 2, 25));
    assertThat(back.nextPaymentDate()).isEqualTo(LocalDate.of(2027, 2, 28));

    Subscription reminded =
        new Subscription(
                "acc-1",
                "sub-1",
                "plus",
                PRICE,
                "ada@example.com",
                new PaymentMethod("pm_card_visa", "visa ****4242"),
                PARIS_31ST,
                SubscriptionStatus.ACTIVE,
                2,
                null,
                null,
                Instant.parse("2027-02-24T23:00:00Z"),
                Instant.parse("2027-01-30T23:00:00Z"),
                Instant.parse("2027-01-01T00:00:00Z"),
                9,
                null)
            .withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.of(2027, 2, 28)));
    // Reminded on Feb 25 (before the cancellation was scheduled), taken back later that day.
    Subscription notTwice =
        Reactivation.cancellationTakenBack(
            reminded, PARIS_31ST.reminderAt(2), Instant.parse("2027-02-25T10:00:00Z"));
    assertThat(notTwice.nextReminderDate()).isNull();
  }
}
