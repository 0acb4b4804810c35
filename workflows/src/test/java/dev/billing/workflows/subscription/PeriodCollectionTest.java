package dev.billing.workflows.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.DunningPolicy;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.Term;
import dev.billing.workflows.CollectionState;
import dev.billing.workflows.OpenPeriod;
import dev.billing.workflows.SettledCharge;
import dev.billing.workflows.subscription.PeriodCollection.Effect;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What an event means, from the workflow's state alone. */
class PeriodCollectionTest {

  private static final BillingSchedule UTC_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
  private static final Instant SETTLE_BY = Instant.parse("2028-01-20T00:00:00Z");

  private static PaymentEvent event(String id, Type type, String key) {
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        "sub-1",
        1,
        key,
        null,
        null,
        null,
        Instant.parse("2028-01-16T00:00:00Z"));
  }

  private static PeriodCollection withPending() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    periods.put(OpenPeriod.pending(1, 1, null, null, 0, SETTLE_BY, "txn_1", null));
    return periods;
  }

  @Test
  void eventsAboutThePendingChargeSettleOrFailIt() {
    PeriodCollection periods = withPending();
    assertThat(periods.effectOf(event("e1", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1")))
        .isEqualTo(Effect.SETTLE);
    assertThat(periods.effectOf(event("e2", Type.CHARGE_FAILED, "charge:sub-1:1:1")))
        .isEqualTo(Effect.FAIL);
    assertThat(periods.effectOf(event("e3", Type.CHARGE_RETURNED, "charge:sub-1:1:1")))
        .isEqualTo(Effect.RETURN_PENDING);
    assertThat(periods.effectOf(event("e4", Type.CHARGE_REFUNDED, "charge:sub-1:1:1")))
        .isEqualTo(Effect.NONE);
    assertThat(periods.effectOf(event("e5", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:2")))
        .isEqualTo(Effect.NONE);
  }

  @Test
  void withoutAKeyTheTransactionIdIdentifiesTheCharge() {
    PeriodCollection periods = withPending();
    PaymentEvent byTxn =
        new PaymentEvent(
            "e1",
            "stripe",
            Type.CHARGE_SUCCEEDED,
            "sub-1",
            1,
            null,
            "txn_1",
            null,
            null,
            Instant.parse("2028-01-16T00:00:00Z"));
    assertThat(periods.effectOf(byTxn)).isEqualTo(Effect.SETTLE);
  }

  @Test
  void afterSettlingOnlyAReturnHasAnEffect() {
    PeriodCollection periods = withPending();
    periods.remove(1);
    periods.settled(new SettledCharge(1, 1, "charge:sub-1:1:1", "txn_1", null));

    PaymentEvent succeeded = event("e1", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1");
    PaymentEvent failed = event("e2", Type.CHARGE_FAILED, "charge:sub-1:1:1");
    PaymentEvent returned = event("e3", Type.CHARGE_RETURNED, "charge:sub-1:1:1");
    assertThat(periods.effectOf(succeeded)).isEqualTo(Effect.NONE);
    assertThat(periods.whyIgnored(succeeded))
        .isEqualTo("CHARGE_SUCCEEDED e1 after the charge succeeded: already settled");
    assertThat(periods.possibleDoubleCharge(succeeded)).as("the same charge again").isFalse();
    assertThat(periods.effectOf(failed)).isEqualTo(Effect.NONE);
    assertThat(periods.whyIgnored(failed))
        .isEqualTo("CHARGE_FAILED e2 after the charge succeeded: already settled");
    assertThat(periods.effectOf(returned)).isEqualTo(Effect.RETURN_SETTLED);
  }

  @Test
  void theHandlerOnlyDeduplicatesAndQueuesMeaningIsReadLater() {
    PeriodCollection periods = withPending();
    PaymentEvent returned = event("e3", Type.CHARGE_RETURNED, "charge:sub-1:1:1");
    // Arrives while the main thread is between "period removed" and "charge settled".
    periods.remove(1);
    assertThat(periods.effectOf(returned)).isEqualTo(Effect.NONE);
    assertThat(periods.receive(returned)).as("queued even though it means nothing yet").isNull();
    assertThat(periods.receive(returned)).isEqualTo("duplicate delivery of e3");
    periods.settled(new SettledCharge(1, 1, "charge:sub-1:1:1", "txn_1", null));
    PaymentEvent taken = periods.nextEvent();
    assertThat(taken.eventId()).isEqualTo("e3");
    assertThat(periods.effectOf(taken)).isEqualTo(Effect.RETURN_SETTLED);
    assertThat(periods.hasEvents()).isFalse();
  }

  @Test
  void aReturnedChargeIsFinalWhateverArrivesAfterIt() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    // The return of attempt 1 reopened the period; attempt 2 is settling.
    periods.returned(new SettledCharge(1, 1, "charge:sub-1:1:1", "txn_1", null));
    periods.put(
        OpenPeriod.pending(
            1, 2, DunningPolicy.DEFAULT, LocalDate.of(2028, 1, 20), 1, SETTLE_BY, "txn_1_2", null));

    PaymentEvent late = event("e1", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1");
    PaymentEvent again = event("e2", Type.CHARGE_RETURNED, "charge:sub-1:1:1");
    assertThat(periods.effectOf(late))
        .as("its success does not collect the period")
        .isEqualTo(Effect.NONE);
    assertThat(periods.possibleDoubleCharge(late)).as("its money came back").isFalse();
    assertThat(periods.whyIgnored(late))
        .isEqualTo("CHARGE_SUCCEEDED e1 about a charge that was returned: already recorded");
    assertThat(periods.effectOf(again)).isEqualTo(Effect.NONE);
    assertThat(periods.effectOf(event("e3", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:2")))
        .isEqualTo(Effect.SETTLE);

    PeriodCollection next = new PeriodCollection("sub-1", periods.carry());
    assertThat(next.effectOf(late)).as("remembered across continue-as-new").isEqualTo(Effect.NONE);
  }

  @Test
  void aSettledChargeThatComesBackLeavesTheSettledOnes() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    SettledCharge charge = new SettledCharge(1, 1, "charge:sub-1:1:1", "txn_1", null);
    periods.settled(charge);
    periods.returned(charge);
    IntStream.rangeClosed(2, 15)
        .forEach(
            c ->
                periods.returned(
                    new SettledCharge(c, 1, "charge:sub-1:" + c + ":1", "t" + c, null)));

    assertThat(periods.carry().settled()).isEmpty();
    assertThat(periods.carry().returned())
        .hasSize(ChargeLedger.MAX_RETURNED)
        .extracting(SettledCharge::cycle)
        .startsWith(4L)
        .endsWith(15L);
  }

  @Test
  void aFailureEventResolvesAnUnansweredAttemptWithoutASecondCharge() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    periods.put(
        OpenPeriod.dunning(
            1,
            2,
            true,
            DunningPolicy.DEFAULT,
            LocalDate.of(2028, 1, 15),
            1,
            "gateway_unavailable",
            null,
            null));
    assertThat(periods.effectOf(event("e1", Type.CHARGE_FAILED, "charge:sub-1:1:2")))
        .isEqualTo(Effect.RESOLVE_FAILED);
    assertThat(periods.effectOf(event("e2", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:2")))
        .isEqualTo(Effect.SETTLE);
    PaymentEvent earlier = event("e3", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1");
    assertThat(periods.effectOf(earlier))
        .as("an earlier attempt failed: the gateway confirms first")
        .isEqualTo(Effect.CONFIRM_SUCCESS);
    assertThat(periods.attemptOf(earlier, periods.openForAnyAttempt(earlier))).isEqualTo(1);
    assertThat(periods.effectOf(event("e4", Type.CHARGE_FAILED, "charge:sub-1:1:1")))
        .isEqualTo(Effect.NONE);
    assertThat(periods.effectOf(event("e5", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:3")))
        .isEqualTo(Effect.NONE);
  }

  @Test
  void aSuccessForACollectedPeriodByAnotherKeyIsAPossibleDoubleCharge() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    periods.settled(new SettledCharge(1, 2, "charge:sub-1:1:2", "txn_1_2", null));
    PaymentEvent other = event("e1", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1");
    assertThat(periods.effectOf(other)).isEqualTo(Effect.NONE);
    assertThat(periods.possibleDoubleCharge(other)).isTrue();
    assertThat(periods.possibleDoubleCharge(event("e2", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:2")))
        .isFalse();
    assertThat(periods.possibleDoubleCharge(event("e3", Type.CHARGE_FAILED, "charge:sub-1:1:1")))
        .isFalse();
  }

  @Test
  void thePlanChangesOwnChargeSucceedingIsNoAlarm() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    PaymentEvent upgrade =
        event("e1", Type.CHARGE_SUCCEEDED, BillingIds.changeChargeKey("sub-1", "req-8"));

    assertThat(periods.effectOf(upgrade)).isEqualTo(Effect.NONE);
    assertThat(periods.possibleDoubleCharge(upgrade)).isFalse();
    assertThat(periods.whyIgnored(upgrade))
        .isEqualTo(
            "CHARGE_SUCCEEDED e1 is about a plan change's charge"
                + " ("
                + BillingIds.changeChargeKey("sub-1", "req-8")
                + "), recorded with that change");
    // Another subscription's change key is no excuse.
    assertThat(
            periods.possibleDoubleCharge(
                event("e2", Type.CHARGE_SUCCEEDED, BillingIds.changeChargeKey("sub-10", "req-8"))))
        .isTrue();
  }

  @Test
  void anotherSubscriptionsEventIsIgnored() {
    PeriodCollection periods = withPending();
    PaymentEvent foreign =
        new PaymentEvent(
            "e1",
            "sandbox",
            Type.CHARGE_SUCCEEDED,
            "sub-2",
            1,
            "charge:sub-1:1:1",
            null,
            null,
            null,
            Instant.parse("2028-01-16T00:00:00Z"));
    assertThat(periods.effectOf(foreign)).isEqualTo(Effect.NONE);
    assertThat(periods.whyIgnored(foreign)).isEqualTo("event e1 is about subscription sub-2");
    assertThat(periods.possibleDoubleCharge(foreign)).isFalse();
  }

  @Test
  void seenIdsAreBoundedAndTravelWithPendingEventsAndPeriods() {
    PeriodCollection periods = withPending();
    IntStream.range(0, EventInbox.MAX_SEEN_EVENTS + 5)
        .forEach(i -> periods.receive(event("n" + i, Type.CHARGE_REFUNDED, "charge:sub-1:1:1")));
    while (periods.hasEvents()) {
      periods.nextEvent(); // the main thread took them
    }
    periods.receive(event("ok", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1"));

    CollectionState carried = periods.carry();

    assertThat(carried.seenEventIds())
        .hasSize(EventInbox.MAX_SEEN_EVENTS)
        .doesNotContain("n0")
        .endsWith("ok");
    assertThat(carried.pendingEvents()).extracting(PaymentEvent::eventId).containsExactly("ok");
    assertThat(carried.open()).extracting(OpenPeriod::cycle).containsExactly(1L);
    PeriodCollection next = new PeriodCollection("sub-1", carried);
    assertThat(next.receive(event("ok", Type.CHARGE_SUCCEEDED, "charge:sub-1:1:1")))
        .isEqualTo("duplicate delivery of ok");
    assertThat(next.nextEvent().eventId()).isEqualTo("ok");
    assertThat(next.firstDue(UTC_15TH, SETTLE_BY).cycle()).isEqualTo(1);
    assertThat(next.firstDue(UTC_15TH, SETTLE_BY.minusSeconds(1))).isNull();
  }

  @Test
  void settledChargesAreBounded() {
    PeriodCollection periods = new PeriodCollection("sub-1", CollectionState.EMPTY);
    IntStream.rangeClosed(1, 15)
        .forEach(
            c ->
                periods.settled(
                    new SettledCharge(c, 1, "charge:sub-1:" + c + ":1", "t" + c, null)));
    assertThat(periods.carry().settled())
        .extracting(SettledCharge::cycle)
        .containsExactlyElementsOf(IntStream.rangeClosed(4, 15).mapToObj(c -> (long) c).toList());
  }
}
