package dev.billing.workflows;

import static dev.billing.workflows.SubscriptionWorkflowDunningTest.periodRecords;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PaymentEvent.Type;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.ChargeLookup;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An immediate upgrade paid by a bank debit that settles (the plan changes with its receipt) and is
 * then returned: the return is recorded, the receipt reversed, and the amount owed again with the
 * next charge; a repeat of the event changes nothing more. Cycle 1 is due 2028-01-15 and paid then.
 */
@Timeout(60)
class UpgradeReturnTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  @Test
  void aReturnedUpgradeDebitIsRecordedReversedAndOwedWithTheNextCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-ur", "upgrade-r");
      t.fake.chargeModeForKey(key, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-ur", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      t.upgradeNowAccepted(workflow, "upgrade-r");
      while (events(t, HistoryEvent.PAYMENT_PENDING).isEmpty()) {
        t.env.sleep(Duration.ofSeconds(20));
      }
      String txn =
          t.fake.charges().stream()
              .filter(c -> c.input().idempotencyKey().equals(key))
              .map(c -> "txn_sub-ur_1_" + c.input().attempt())
              .findFirst()
              .orElseThrow();
      t.fake.gatewaySays(
          key,
          new ChargeLookup(
              ChargeLookup.Status.SUCCEEDED,
              txn,
              Instant.parse("2028-01-20T10:00:00Z"),
              null,
              null));
      t.runUntil("2028-01-20T11:00:00Z");
      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      Money charged = changed.receipt().amount();
      assertThat(charged).isEqualTo(Money.parse("8.39", "USD"));

      t.fake.gatewaySays(
          key,
          new ChargeLookup(
              ChargeLookup.Status.RETURNED,
              txn,
              Instant.parse("2028-01-20T10:00:00Z"),
              "insufficient_funds",
              "returned"));
      PaymentEvent returned =
          new PaymentEvent(
              "evt_ur",
              "sandbox",
              Type.CHARGE_RETURNED,
              "sub-ur",
              1,
              key,
              txn,
              "insufficient_funds",
              "returned",
              Instant.parse("2028-01-23T00:00:00Z"));
      workflow.paymentEvent(returned);
      t.runUntil("2028-01-24T00:00:00Z");
      workflow.paymentEvent(returned);
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_ur2",
              "sandbox",
              Type.CHARGE_RETURNED,
              "sub-ur",
              1,
              key,
              txn,
              "insufficient_funds",
              "returned",
              Instant.parse("2028-01-23T00:00:00Z")));
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_us",
              "sandbox",
              Type.CHARGE_SUCCEEDED,
              "sub-ur",
              1,
              key,
              txn,
              null,
              null,
              Instant.parse("2028-01-20T10:00:00Z")));
      t.runUntil("2028-01-25T00:00:00Z");

      List<RecordInput> returns = events(t, HistoryEvent.PAYMENT_RETURNED);
      assertThat(returns).as("recorded once, naming the upgrade's key").hasSize(1);
      RecordInput back = returns.get(0);
      assertThat(back.detail()).contains(key);
      assertThat(back.receipt().transactionId()).isEqualTo(txn);
      assertThat(back.receipt().amount())
          .as("the receipt reversed")
          .isEqualTo(Money.zero("USD").minus(charged));
      assertThat(back.next().lifecycle().balance()).as("owed again").isEqualTo(charged);
      assertThat(back.next().sku()).isEqualTo("PRO-MAX");
      assertThat(t.fake.notices())
          .extracting(c -> c.input().messageId())
          .as("the customer is told once; the reversal is not mailed as a receipt")
          .filteredOn(id -> id.startsWith("<upgrade-returned-"))
          .hasSize(1);

      t.runUntil("2028-02-16T00:00:00Z");
      assertThat(periodRecords(t, 2)).isNotEmpty();
      assertThat(periodRecords(t, 2).get(0).period().amount())
          .as("the next charge collects the debt")
          .isEqualTo(Money.parse("19.99", "USD").plus(charged));
    }
  }

  @Test
  void aRunRestartedFromTheRecordStillRecognisesTheUpgradeChargeItsReturnNames() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-us", "upgrade-s");
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-us", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MAX",
              Money.parse("19.99", "USD"),
              PlanChangeRequest.Effective.NOW,
              "user:ada",
              "upgrade-s"));
      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      String txn = changed.receipt().transactionId();
      assertThat(changed.next().lifecycle().upgradesPaid())
          .extracting(p -> p.idempotencyKey())
          .containsExactly(key);

      // The run is lost once at rest (its notice sent); reconciliation starts it from the record.
      t.runUntil("2028-01-20T11:00:00Z");
      t.untyped("sub-us").terminate("lost");
      List<RecordInput> writes = t.fake.writes();
      t.restart(writes.get(writes.size() - 1).next(), List.of(t.fake.period("sub-us", 1)));
      t.fake.gatewaySays(
          key,
          new ChargeLookup(
              ChargeLookup.Status.RETURNED,
              txn,
              Instant.parse("2028-01-20T10:00:00Z"),
              "insufficient_funds",
              "returned"));
      SubscriptionWorkflow restarted = t.existing("sub-us");
      PaymentEvent returned =
          new PaymentEvent(
              "evt_us",
              "sandbox",
              Type.CHARGE_RETURNED,
              "sub-us",
              1,
              key,
              txn,
              "insufficient_funds",
              "returned",
              Instant.parse("2028-01-23T00:00:00Z"));
      restarted.paymentEvent(returned);
      t.runUntil("2028-01-24T00:00:00Z");

      List<RecordInput> returns = events(t, HistoryEvent.PAYMENT_RETURNED);
      assertThat(returns).hasSize(1);
      assertThat(returns.get(0).detail()).contains(key);
      assertThat(returns.get(0).next().lifecycle().balance()).isEqualTo(changed.receipt().amount());
      assertThat(returns.get(0).next().lifecycle().upgradesPaid()).isEmpty();

      // Lost again after recording it: the record no longer names the charge, so a repeat is
      // ignored.
      t.untyped("sub-us").terminate("lost again");
      writes = t.fake.writes();
      t.restart(writes.get(writes.size() - 1).next(), List.of(t.fake.period("sub-us", 1)));
      t.existing("sub-us")
          .paymentEvent(
              new PaymentEvent(
                  "evt_us2",
                  "sandbox",
                  Type.CHARGE_RETURNED,
                  "sub-us",
                  1,
                  key,
                  txn,
                  "insufficient_funds",
                  "returned",
                  Instant.parse("2028-01-23T00:00:00Z")));
      t.runUntil("2028-01-25T00:00:00Z");
      assertThat(events(t, HistoryEvent.PAYMENT_RETURNED)).hasSize(1);
    }
  }
}
