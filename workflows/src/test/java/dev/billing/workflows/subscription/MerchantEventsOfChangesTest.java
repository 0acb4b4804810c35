package dev.billing.workflows.subscription;

import static dev.billing.domain.MerchantEventType.PAYMENT_FAILED;
import static dev.billing.domain.MerchantEventType.PAYMENT_SUCCEEDED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_ACTIVATED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_CANCELED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_CREATED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PAST_DUE;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PAUSED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_PLAN_CHANGED;
import static dev.billing.domain.MerchantEventType.SUBSCRIPTION_RESUMED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Lifecycle;
import dev.billing.domain.MerchantEvent;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.MerchantEvents;
import dev.billing.domain.Money;
import dev.billing.domain.Pause;
import dev.billing.domain.Process;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.CancelRequest;
import dev.billing.workflows.activities.ChargeResult;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The event table read against the changes the workflow really records (its own pure change
 * builders), so a change of what the workflow writes that the table misreads fails here.
 */
class MerchantEventsOfChangesTest {
  private static final Instant AT = Instant.parse("2028-02-15T00:00:00Z");

  private static List<MerchantEventType> types(RecordInput change) {
    return MerchantEvents.of(change).stream().map(MerchantEvent::type).toList();
  }

  private static Subscription neverPaid() {
    return ChangeRulesTest.active().withLastPaymentAt(null);
  }

  @Test
  void theOutcomeUnknownCodesAreTheWorkflows() {
    assertThat(MerchantEvents.OUTCOME_UNKNOWN_CODES)
        .containsExactlyInAnyOrder(
            SubscriptionChanges.GATEWAY_UNAVAILABLE, SubscriptionChanges.CHARGE_NOT_FOUND);
  }

  @Test
  void creationAndTheFirstAndLaterCharges() {
    RecordInput created = SubscriptionChanges.creation(neverPaid(), "api", AT);
    assertThat(types(created)).containsExactly(SUBSCRIPTION_CREATED);

    ChargeResult charge = new ChargeResult("ch_1", AT, false);
    assertThat(types(SubscriptionChanges.paid(neverPaid(), 1, charge, AT)))
        .containsExactly(PAYMENT_SUCCEEDED, SUBSCRIPTION_ACTIVATED);
    assertThat(types(SubscriptionChanges.paid(ChangeRulesTest.active(), 1, charge, AT)))
        .containsExactly(PAYMENT_SUCCEEDED);
  }

  @Test
  void aDeclineStartsDunningAndAnUnknownOutcomeIsNoFailedPayment() {
    Subscription active = ChangeRulesTest.active();
    Money price = active.price();
    RecordInput declined =
        CollectionChanges.unpaid(
            active,
            2,
            price,
            1,
            "insufficient_funds",
            "declined",
            HistoryEvent.PAYMENT_FAILED,
            true,
            Process.INITIAL,
            "cycle-2/charge-1",
            "payment failed",
            AT);
    assertThat(types(declined)).containsExactly(PAYMENT_FAILED, SUBSCRIPTION_PAST_DUE);

    RecordInput unknown =
        CollectionChanges.unpaid(
            active,
            2,
            price,
            1,
            SubscriptionChanges.GATEWAY_UNAVAILABLE,
            "no answer",
            HistoryEvent.PAYMENT_FAILED,
            true,
            Process.INITIAL,
            "cycle-2/charge-1",
            "?",
            AT);
    assertThat(types(unknown)).containsExactly(SUBSCRIPTION_PAST_DUE);

    Subscription pastDue = declined.next();
    RecordInput collected =
        CollectionChanges.collected(
            pastDue,
            2,
            price,
            2,
            "ch_2",
            AT,
            SubscriptionStatus.ACTIVE,
            Process.RETRY,
            "cycle-2/charge-2",
            "paid",
            AT);
    assertThat(types(collected)).containsExactly(PAYMENT_SUCCEEDED);
  }

  @Test
  void pauseResumePlanAndCancel() {
    Subscription active = ChangeRulesTest.active();
    RecordInput paused =
        PauseRecords.paused(
            active,
            new Pause(LocalDate.parse("2028-02-01"), null, "away"),
            null,
            Process.API,
            "api",
            "paused",
            AT);
    assertThat(types(paused)).containsExactly(SUBSCRIPTION_PAUSED);

    RecordInput resumed =
        PauseRecords.resumed(
            paused.next(), SubscriptionStatus.ACTIVE, Process.API, "api", "resumed", AT);
    assertThat(types(resumed)).containsExactly(SUBSCRIPTION_RESUMED);

    RecordInput plan =
        PlanRecords.planChanged(
            active,
            "team",
            Money.parse("20.00", "USD"),
            null,
            null,
            null,
            Process.API,
            "api",
            "plan",
            AT);
    assertThat(types(plan)).containsExactly(SUBSCRIPTION_PLAN_CHANGED);

    RecordInput cancelled =
        SubscriptionChanges.cancellation(active, new CancelRequest("bye", "api"), AT);
    assertThat(types(cancelled)).containsExactly(SUBSCRIPTION_CANCELED);
    assertThat(
            types(
                SubscriptionChanges.cancellation(
                    paused.next(), "dunning", "system", Process.RETRY, AT)))
        .containsExactly(SUBSCRIPTION_CANCELED);
  }

  @Test
  void aSkippedPeriodWhilePausedIsNothing() {
    Subscription paused =
        ChangeRulesTest.sub(
            SubscriptionStatus.PAUSED,
            Lifecycle.NONE.withPause(new Pause(LocalDate.parse("2028-02-01"), null, null)));
    assertThat(types(PauseRecords.skipped(paused, AT))).isEmpty();
  }
}
