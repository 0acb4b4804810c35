package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.MerchantEvent;
import dev.billing.domain.MerchantEventType;
import dev.billing.domain.MerchantEvents;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A card dispute of an immediate upgrade's own charge (not the period's): recorded in the history
 * and told to the merchant as {@code payment.disputed} with the subscription as recorded; won,
 * nothing is owed; lost, it is a returned upgrade charge, owed again with the next charge. The
 * period's own charge stays collected throughout. Cycle 1 is due 2028-01-15 and paid then; the
 * upgrade to 19.99 on 2028-01-20 charges 8.39 by card.
 */
@Timeout(60)
class UpgradeDisputeTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  /** The upgrade's receipt, after its charge succeeded at once. */
  private static RecordInput upgraded(BillingTestEnvironment t, String sub, String request) {
    SubscriptionWorkflow workflow =
        t.start(BillingTestEnvironment.requested(sub, ON_THE_15TH, "9.99"));
    t.runUntil("2028-01-20T10:00:00Z");
    workflow.changePlan(
        new PlanChangeRequest(
            "PRO-MAX",
            Money.parse("19.99", "USD"),
            PlanChangeRequest.Effective.NOW,
            "user:ada",
            request));
    RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
    assertThat(changed.receipt().amount()).isEqualTo(Money.parse("8.39", "USD"));
    return changed;
  }

  private static PaymentEvent event(
      String id, Type type, String sub, String key, String txn, String code, String at) {
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        sub,
        1,
        key,
        txn,
        code,
        code == null ? null : "disputed: " + code,
        Instant.parse(at),
        Money.parse("8.39", "USD"),
        List.of());
  }

  @Test
  void aDisputedUpgradeChargeIsRecordedToldAndWonOwesNothing() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String sub = "sub-upd";
      String key = BillingIds.changeChargeKey(sub, "upgrade-d");
      String txn = upgraded(t, sub, "upgrade-d").receipt().transactionId();
      SubscriptionWorkflow workflow = t.existing(sub);

      PaymentEvent disputed =
          event(
              "evt_ud", Type.CHARGE_DISPUTED, sub, key, txn, "fraudulent", "2028-01-25T00:00:00Z");
      workflow.paymentEvent(disputed);
      workflow.paymentEvent(disputed); // redelivered: nothing more
      t.runUntil("2028-01-26T00:00:00Z");

      List<RecordInput> disputes = events(t, HistoryEvent.PAYMENT_DISPUTED);
      assertThat(disputes).as("recorded once").hasSize(1);
      RecordInput recorded = disputes.get(0);
      assertThat(recorded.detail()).contains(key).contains(txn).contains("fraudulent");
      assertThat(recorded.period()).as("the period's own charge is not disputed").isNull();
      assertThat(MerchantEvents.of(recorded))
          .as("the outbox tells payment.disputed with the subscription as recorded")
          .containsExactly(
              new MerchantEvent(MerchantEventType.PAYMENT_DISPUTED, recorded.next(), null, null));
      assertThat(t.fake.period(sub, 1).status()).isEqualTo(PeriodStatus.COMPLETED);

      workflow.paymentEvent(
          event("evt_uw", Type.DISPUTE_WON, sub, key, txn, null, "2028-02-05T00:00:00Z"));
      t.runUntil("2028-02-06T00:00:00Z");
      List<RecordInput> won = events(t, HistoryEvent.DISPUTE_WON);
      assertThat(won).hasSize(1);
      assertThat(won.get(0).detail()).contains(txn).contains("nothing is owed");
      assertThat(won.get(0).next().lifecycle().balance()).isNull();
      assertThat(MerchantEvents.of(won.get(0))).isEmpty();

      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(SubscriptionWorkflowDunningTest.periodRecords(t, 2).get(0).period().amount())
          .as("the next charge is the plan's price alone")
          .isEqualTo(Money.parse("19.99", "USD"));
    }
  }

  @Test
  void aLostUpgradeChargeDisputeIsReturnedAndOwedWithTheNextCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String sub = "sub-upl";
      String key = BillingIds.changeChargeKey(sub, "upgrade-l");
      RecordInput changed = upgraded(t, sub, "upgrade-l");
      String txn = changed.receipt().transactionId();
      SubscriptionWorkflow workflow = t.existing(sub);

      workflow.paymentEvent(
          event(
              "evt_ld", Type.CHARGE_DISPUTED, sub, key, txn, "fraudulent", "2028-01-25T00:00:00Z"));
      t.runUntil("2028-01-26T00:00:00Z");
      assertThat(events(t, HistoryEvent.PAYMENT_DISPUTED)).hasSize(1);

      workflow.paymentEvent(
          event(
              "evt_ll",
              Type.CHARGE_RETURNED,
              sub,
              key,
              txn,
              "dispute_lost",
              "2028-02-05T00:00:00Z"));
      t.runUntil("2028-02-06T00:00:00Z");

      List<RecordInput> returns = events(t, HistoryEvent.PAYMENT_RETURNED);
      assertThat(returns).hasSize(1);
      assertThat(returns.get(0).detail()).contains(key).contains("dispute_lost");
      assertThat(returns.get(0).receipt().amount())
          .isEqualTo(Money.zero("USD").minus(changed.receipt().amount()));
      assertThat(returns.get(0).next().lifecycle().balance()).isEqualTo(changed.receipt().amount());
      assertThat(events(t, HistoryEvent.DISPUTE_WON)).isEmpty();
      assertThat(t.fake.period(sub, 1).status()).isEqualTo(PeriodStatus.COMPLETED);
    }
  }
}
