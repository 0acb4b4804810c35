package dev.billing.domain;

import static dev.billing.domain.MerchantEventType.PAYMENT_FAILED;
import static dev.billing.domain.MerchantEventType.PAYMENT_REFUNDED;
import static dev.billing.domain.MerchantEventType.PAYMENT_SUCCEEDED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_ACTIVATED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_CANCELED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_CREATED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_INCOMPLETE_EXPIRED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PAST_DUE;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PAUSED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PLAN_CHANGED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_RESUMED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_TRIAL_WILL_END;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The table from a recorded change to the merchant's events, case by case. */
class MerchantEventsTest {
  private static final Instant AT = Instant.parse("2027-01-31T09:00:00Z");
  private static final Money PRICE = Money.parse("9.99", "USD");

  private static Subscription sub(SubscriptionStatus status, Instant lastPaymentAt, long version) {
    return new Subscription(
        "acc-1",
        "sub-1",
        "plus",
        PRICE,
        "ada@example.com",
        new PaymentMethod("pm_card_visa", "visa ****4242"),
        new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "UTC", 3),
        status,
        2,
        null,
        LocalDate.of(2027, 2, 28),
        null,
        lastPaymentAt,
        Instant.parse("2027-01-01T00:00:00Z"),
        version,
        null);
  }

  private static Subscription active() {
    return sub(SubscriptionStatus.ACTIVE, AT.minusSeconds(86_400 * 31), 4);
  }

  private static Period period(PeriodStatus status, String transactionId, String failureCode) {
    return new Period(
        "acc-1",
        "sub-1",
        1,
        LocalDate.of(2027, 1, 31),
        PRICE,
        status,
        1,
        transactionId,
        failureCode,
        failureCode == null ? null : "declined",
        AT);
  }

  private static Receipt receipt(Money amount) {
    return new Receipt(
        "acc-1", "sub-1", 1, "plus", "ada@example.com", amount, AT, "ch_1", "visa ****4242", null);
  }

  private static RecordInput change(
      Subscription before, Subscription after, HistoryEvent event, Period period, Receipt receipt) {
    return new RecordInput(
        "c", before, after, event, Process.INITIAL, "system", null, period, receipt, AT);
  }

  private static RecordInput change(Subscription before, SubscriptionStatus to, HistoryEvent e) {
    return change(before, before.withStatus(to).withVersion(before.version() + 1), e, null, null);
  }

  private static List<MerchantEventType> types(RecordInput change) {
    return MerchantEvents.of(change).stream().map(MerchantEvent::type).toList();
  }

  @Test
  void aCreatedSubscriptionIsCreatedOnly() {
    Subscription created = sub(SubscriptionStatus.ACTIVE, null, 1);
    RecordInput change = change(null, created, HistoryEvent.SUBSCRIPTION_CREATED, null, null);

    List<MerchantEvent> events = MerchantEvents.of(change);

    assertThat(events)
        .containsExactly(new MerchantEvent(SUBSCRIPTION_CREATED, created, null, null));
  }

  @Test
  void theFirstCollectedPeriodIsAPaymentThenTheActivation() {
    Subscription before = sub(SubscriptionStatus.TRIALING, null, 2);
    Subscription after =
        before.withStatus(SubscriptionStatus.ACTIVE).withLastPaymentAt(AT).withVersion(3);
    Period paid = period(PeriodStatus.COMPLETED, "ch_1", null);
    Receipt receipt = receipt(PRICE);

    List<MerchantEvent> events =
        MerchantEvents.of(change(before, after, HistoryEvent.PAYMENT_SUCCEEDED, paid, receipt));

    assertThat(events)
        .containsExactly(
            new MerchantEvent(PAYMENT_SUCCEEDED, after, paid, receipt),
            new MerchantEvent(SUBSCRIPTION_ACTIVATED, after, null, null));
  }

  @Test
  void anIncompleteSubscriptionsFirstCollectedPeriodActivatesIt() {
    Subscription before = sub(SubscriptionStatus.INCOMPLETE, null, 3);
    Subscription after =
        before.withStatus(SubscriptionStatus.ACTIVE).withLastPaymentAt(AT).withVersion(4);
    Period paid = period(PeriodStatus.COMPLETED, "ch_1", null);

    assertThat(types(change(before, after, HistoryEvent.PAYMENT_SUCCEEDED, paid, receipt(PRICE))))
        .containsExactly(PAYMENT_SUCCEEDED, SUBSCRIPTION_ACTIVATED);
  }

  @Test
  void aFirstPaymentDeclinedIsAFailedPaymentAndNoPastDue() {
    Subscription before = sub(SubscriptionStatus.INCOMPLETE, null, 1);
    Period unpaid = period(PeriodStatus.ERROR, null, "insufficient_funds");
    // Retried on the first payment's schedule: still INCOMPLETE, no status event.
    assertThat(
            types(change(before, before.withVersion(2), HistoryEvent.PAYMENT_FAILED, unpaid, null)))
        .containsExactly(PAYMENT_FAILED);
    // A trial's first charge declined: TRIALING to INCOMPLETE has no event of its own.
    Subscription trialing = sub(SubscriptionStatus.TRIALING, null, 2);
    assertThat(
            types(
                change(
                    trialing,
                    trialing.withStatus(SubscriptionStatus.INCOMPLETE).withVersion(3),
                    HistoryEvent.PAYMENT_FAILED,
                    unpaid,
                    null)))
        .containsExactly(PAYMENT_FAILED);
  }

  @Test
  void theLastFirstPaymentAttemptDeclinedExpiresTheSubscription() {
    Subscription before = sub(SubscriptionStatus.INCOMPLETE, null, 3);
    Subscription after =
        before.withStatus(SubscriptionStatus.INCOMPLETE_EXPIRED).withNothingDue().withVersion(4);
    Period unpaid = period(PeriodStatus.ERROR, null, "insufficient_funds");

    List<MerchantEvent> events =
        MerchantEvents.of(change(before, after, HistoryEvent.DUNNING_EXHAUSTED, unpaid, null));

    assertThat(events)
        .containsExactly(
            new MerchantEvent(PAYMENT_FAILED, after, unpaid, null),
            new MerchantEvent(SUBSCRIPTION_INCOMPLETE_EXPIRED, after, null, null));
    // Expired after a lookup proved the unknown last attempt made no charge: no decline to tell.
    Period notMade = period(PeriodStatus.ERROR, null, "charge_not_found");
    assertThat(types(change(before, after, HistoryEvent.DUNNING_EXHAUSTED, notMade, null)))
        .containsExactly(SUBSCRIPTION_INCOMPLETE_EXPIRED);
  }

  @Test
  void aLaterCollectedPeriodIsAPaymentOnly() {
    Subscription before = active();
    Period paid = period(PeriodStatus.COMPLETED, "ch_2", null);

    assertThat(
            types(
                change(
                    before,
                    before.withVersion(5),
                    HistoryEvent.PAYMENT_SUCCEEDED,
                    paid,
                    receipt(PRICE))))
        .containsExactly(PAYMENT_SUCCEEDED);
    // Collected while another period is still unpaid: still past due, nothing more to tell.
    Subscription pastDue = before.withStatus(SubscriptionStatus.PAST_DUE);
    assertThat(
            types(
                change(
                    pastDue,
                    pastDue.withVersion(5),
                    HistoryEvent.PAYMENT_SUCCEEDED,
                    paid,
                    receipt(PRICE))))
        .containsExactly(PAYMENT_SUCCEEDED);
    // Dunning ends paid: the status goes back to ACTIVE, which has no event of its own.
    assertThat(
            types(
                change(
                    pastDue,
                    pastDue.withStatus(SubscriptionStatus.ACTIVE).withVersion(5),
                    HistoryEvent.PAYMENT_SUCCEEDED,
                    paid,
                    receipt(PRICE))))
        .containsExactly(PAYMENT_SUCCEEDED);
  }

  @Test
  void aPeriodCoveredByCreditMovedNoMoney() {
    Subscription before = sub(SubscriptionStatus.ACTIVE, null, 2);
    Subscription after = before.withLastPaymentAt(AT).withVersion(3);
    Period byCredit =
        new Period(
            "acc-1",
            "sub-1",
            1,
            LocalDate.of(2027, 1, 31),
            Money.zero("USD"),
            PeriodStatus.COMPLETED,
            0,
            null,
            null,
            null,
            AT);

    assertThat(types(change(before, after, HistoryEvent.PAYMENT_SUCCEEDED, byCredit, null)))
        .containsExactly(SUBSCRIPTION_ACTIVATED);
    assertThat(types(change(before, after, HistoryEvent.PAYMENT_CARRIED_OVER, byCredit, null)))
        .isEmpty();
  }

  @Test
  void aPendingBankDebitIsNothingYet() {
    Subscription before = sub(SubscriptionStatus.ACTIVE, null, 2);
    Period pending = period(PeriodStatus.PENDING_SETTLEMENT, "ch_1", null);

    assertThat(
            types(
                change(before, before.withVersion(3), HistoryEvent.PAYMENT_PENDING, pending, null)))
        .isEmpty();
  }

  @Test
  void aDeclineIsAFailedPaymentThenPastDue() {
    Subscription before = active();
    Subscription after = before.withStatus(SubscriptionStatus.PAST_DUE).withVersion(5);
    Period unpaid = period(PeriodStatus.ERROR, null, "insufficient_funds");

    List<MerchantEvent> events =
        MerchantEvents.of(change(before, after, HistoryEvent.PAYMENT_FAILED, unpaid, null));

    assertThat(events)
        .containsExactly(
            new MerchantEvent(PAYMENT_FAILED, after, unpaid, null),
            new MerchantEvent(SUBSCRIPTION_PAST_DUE, after, null, null));
    // A retry that fails again: the payment failed, the subscription was past due already.
    assertThat(
            types(change(after, after.withVersion(6), HistoryEvent.PAYMENT_FAILED, unpaid, null)))
        .containsExactly(PAYMENT_FAILED);
    assertThat(
            types(
                change(after, after.withVersion(6), HistoryEvent.DUNNING_EXHAUSTED, unpaid, null)))
        .containsExactly(PAYMENT_FAILED);
  }

  @Test
  void aFailureWithTheOutcomeUnknownIsNoFailedPayment() {
    Subscription before = active();
    Subscription after = before.withStatus(SubscriptionStatus.PAST_DUE).withVersion(5);
    for (String code : MerchantEvents.OUTCOME_UNKNOWN_CODES) {
      Period unknown = period(PeriodStatus.ERROR, null, code);

      assertThat(types(change(before, after, HistoryEvent.PAYMENT_FAILED, unknown, null)))
          .as(code)
          .containsExactly(SUBSCRIPTION_PAST_DUE);
    }
  }

  @Test
  void aReturnedDebitIsAFailedPayment() {
    Subscription before = active();
    Subscription after = before.withStatus(SubscriptionStatus.PAST_DUE).withVersion(5);
    Period returned = period(PeriodStatus.ERROR, null, "R01");

    assertThat(types(change(before, after, HistoryEvent.PAYMENT_RETURNED, returned, null)))
        .containsExactly(PAYMENT_FAILED, SUBSCRIPTION_PAST_DUE);
  }

  @Test
  void aReturnedUpgradeChargeIsAFailedPaymentWithItsReversal() {
    Subscription before = active();
    Subscription after = before.withVersion(5);
    Receipt reversal = receipt(Money.parse("-3.00", "USD"));

    assertThat(
            MerchantEvents.of(change(before, after, HistoryEvent.PAYMENT_RETURNED, null, reversal)))
        .containsExactly(new MerchantEvent(PAYMENT_FAILED, after, null, reversal));
  }

  @Test
  void aRefusedRefundOrADroppedUpgradeIsNoFailedPayment() {
    Subscription before = active();
    Period stillCollected = period(PeriodStatus.COMPLETED, "ch_1", null);

    assertThat(
            types(
                change(
                    before,
                    before.withVersion(5),
                    HistoryEvent.PAYMENT_FAILED,
                    stillCollected,
                    null)))
        .isEmpty();
    assertThat(
            types(change(before, before.withVersion(5), HistoryEvent.PAYMENT_FAILED, null, null)))
        .isEmpty();
  }

  @Test
  void aRefundIsARefundedPayment() {
    Subscription before = active();
    Period refunded = period(PeriodStatus.REFUNDED, "ch_1", null);

    assertThat(
            MerchantEvents.of(
                change(
                    before, before.withVersion(5), HistoryEvent.PAYMENT_REFUNDED, refunded, null)))
        .containsExactly(
            new MerchantEvent(PAYMENT_REFUNDED, before.withVersion(5), refunded, null));
    assertThat(
            types(
                change(
                    before, before.withVersion(5), HistoryEvent.REFUND_REQUESTED, refunded, null)))
        .isEmpty();
  }

  @Test
  void aCardDisputeOpenedIsADisputedPaymentAndItsWinNoEvent() {
    Subscription before = active();
    Period disputed = period(PeriodStatus.DISPUTED, "ch_1", null);
    Period won = period(PeriodStatus.COMPLETED, "ch_1", null);

    assertThat(
            MerchantEvents.of(
                change(
                    before, before.withVersion(5), HistoryEvent.PAYMENT_DISPUTED, disputed, null)))
        .containsExactly(
            new MerchantEvent(
                MerchantEventType.PAYMENT_DISPUTED, before.withVersion(5), disputed, null));
    assertThat(types(change(before, before.withVersion(6), HistoryEvent.DISPUTE_WON, won, null)))
        .isEmpty();
  }

  @Test
  void anUpgradeChargesDisputeIsADisputedPaymentOfTheSubscriptionAsRecorded() {
    Subscription before = active();
    Period collected = period(PeriodStatus.COMPLETED, "ch_1", null);

    assertThat(
            MerchantEvents.of(
                change(before, before.withVersion(5), HistoryEvent.PAYMENT_DISPUTED, null, null)))
        .containsExactly(
            new MerchantEvent(
                MerchantEventType.PAYMENT_DISPUTED, before.withVersion(5), null, null));
    assertThat(
            types(
                change(
                    before, before.withVersion(5), HistoryEvent.PAYMENT_DISPUTED, collected, null)))
        .as("a period written but not disputed is no dispute")
        .isEmpty();
    assertThat(types(change(before, before.withVersion(6), HistoryEvent.DISPUTE_WON, null, null)))
        .isEmpty();
  }

  @Test
  void theTrialEndingNoticeIsTrialWillEnd() {
    Subscription trialing = sub(SubscriptionStatus.TRIALING, null, 1);

    assertThat(
            types(
                change(
                    trialing,
                    trialing.withReminderSent(AT).withVersion(2),
                    HistoryEvent.REMINDER_SENT,
                    null,
                    null)))
        .containsExactly(SUBSCRIPTION_TRIAL_WILL_END);
    assertThat(
            types(
                change(
                    active(),
                    active().withReminderSent(AT).withVersion(5),
                    HistoryEvent.REMINDER_SENT,
                    null,
                    null)))
        .isEmpty();
  }

  @Test
  void pauseResumeAndCancelFollowTheStatus() {
    Subscription paused = active().withStatus(SubscriptionStatus.PAUSED);

    assertThat(types(change(active(), SubscriptionStatus.PAUSED, HistoryEvent.SUBSCRIPTION_PAUSED)))
        .containsExactly(SUBSCRIPTION_PAUSED);
    assertThat(types(change(paused, SubscriptionStatus.ACTIVE, HistoryEvent.SUBSCRIPTION_RESUMED)))
        .containsExactly(SUBSCRIPTION_RESUMED);
    // Resumed with a period still unpaid from before the pause.
    assertThat(
            types(change(paused, SubscriptionStatus.PAST_DUE, HistoryEvent.SUBSCRIPTION_RESUMED)))
        .containsExactly(SUBSCRIPTION_RESUMED, SUBSCRIPTION_PAST_DUE);
    assertThat(
            types(
                change(paused, SubscriptionStatus.CANCELLED, HistoryEvent.SUBSCRIPTION_CANCELLED)))
        .containsExactly(SUBSCRIPTION_CANCELED);
    assertThat(
            types(
                change(
                    active(), SubscriptionStatus.CANCELLED, HistoryEvent.SUBSCRIPTION_CANCELLED)))
        .containsExactly(SUBSCRIPTION_CANCELED);
    // A cancellation at period end changes no status: the cancellation is told when it happens.
    assertThat(
            types(change(active(), SubscriptionStatus.ACTIVE, HistoryEvent.CANCELLATION_SCHEDULED)))
        .isEmpty();
  }

  @Test
  void aFailureRecordedAfterTheEndChangesNoStatus() {
    Subscription ended = active().withStatus(SubscriptionStatus.CANCELLED);
    Period unpaid = period(PeriodStatus.ERROR, null, "insufficient_funds");

    assertThat(
            types(change(ended, ended.withVersion(5), HistoryEvent.PAYMENT_FAILED, unpaid, null)))
        .containsExactly(PAYMENT_FAILED);
  }

  @Test
  void aPlanChangeIsPlanChangedAndItsChargeAPayment() {
    Subscription before = active();
    Subscription after = before.withPlan("team", Money.parse("19.99", "USD")).withVersion(5);
    Receipt upgrade = receipt(Money.parse("7.50", "USD"));

    assertThat(MerchantEvents.of(change(before, after, HistoryEvent.PLAN_CHANGED, null, upgrade)))
        .containsExactly(
            new MerchantEvent(PAYMENT_SUCCEEDED, after, null, upgrade),
            new MerchantEvent(SUBSCRIPTION_PLAN_CHANGED, after, null, null));
    assertThat(types(change(before, after, HistoryEvent.PLAN_CHANGED, null, null)))
        .containsExactly(SUBSCRIPTION_PLAN_CHANGED);
    assertThat(
            types(
                change(
                    before, before.withVersion(5), HistoryEvent.PLAN_CHANGE_SCHEDULED, null, null)))
        .isEmpty();
  }

  /** History events that tell a merchant nothing when the status stays as it was. */
  @ParameterizedTest
  @EnumSource(
      value = HistoryEvent.class,
      names = {
        "PAYMENT_METHOD_CHANGED",
        "PERIOD_SKIPPED",
        "PERIOD_WAIVED",
        "BILLING_DAY_CHANGED",
        "PERIOD_STALE",
        "EMAIL_BOUNCED",
        "REFUND_REQUESTED",
        "PAYMENT_PENDING",
        "PAYMENT_CARRIED_OVER",
        "CANCELLATION_SCHEDULED",
        "PLAN_CHANGE_SCHEDULED"
      })
  void notesWithoutAStatusChangeAreNoEvents(HistoryEvent event) {
    Subscription before = active();
    assertThat(types(change(before, before.withVersion(5), event, null, null))).isEmpty();
  }

  @Test
  void everyTypeHasAUniqueDottedWireName() {
    List<String> names =
        Arrays.stream(MerchantEventType.values()).map(MerchantEventType::wireName).toList();

    assertThat(names)
        .doesNotHaveDuplicates()
        .allMatch(n -> n.matches("(subscription|payment)\\.[a-z_]+"));
    for (MerchantEventType type : MerchantEventType.values()) {
      assertThat(MerchantEventType.fromWireName(type.wireName())).isEqualTo(type);
    }
    assertThat(MerchantEventType.fromWireName("subscription.reactivated"))
        .isEqualTo(MerchantEventType.SUBSCRIPTION_REACTIVATED);
    assertThat(MerchantEventType.fromWireName("subscription.revived")).isNull();
  }

  @Test
  void aReactivationOfAnEndedSubscriptionIsItsOwnEventAndNoOther() {
    Subscription before = sub(SubscriptionStatus.CANCELLED, AT.minusSeconds(86_400 * 31), 6);
    Subscription after = before.withStatus(SubscriptionStatus.ACTIVE).withVersion(7);

    assertThat(types(change(before, after, HistoryEvent.SUBSCRIPTION_REACTIVATED, null, null)))
        .containsExactly(MerchantEventType.SUBSCRIPTION_REACTIVATED);
  }

  @Test
  void takingBackACancellationAtPeriodEndIsAReactivationToo() {
    Subscription before =
        active()
            .withLifecycle(Lifecycle.NONE.withCancelsOn(LocalDate.of(2027, 2, 28)))
            .withVersion(5);
    Subscription after = active().withVersion(6);

    assertThat(types(change(before, after, HistoryEvent.SUBSCRIPTION_REACTIVATED, null, null)))
        .containsExactly(MerchantEventType.SUBSCRIPTION_REACTIVATED);
  }
}
