package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodRefund;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.Call;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.activities.NotifyCustomerInput;
import dev.billing.workflows.activities.RefundInput;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An immediate upgrade whose charge has no answer yet when the subscription is cancelled: the plan
 * never changes, so a charge that turns out to have succeeded is the customer's money for nothing.
 * The run stays open to look it up, records it and refunds all of it, keyed by the upgrade's own
 * request. Cycle 1 is due 2028-01-15 and paid then (9.99 USD); the upgrade on the 20th prorates
 * 8.39 USD.
 */
@Timeout(60)
class UpgradeAfterEndTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static final Money PRORATED = Money.parse("8.39", "USD");

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  /** Cycle 1 paid, then an upgrade whose charge moves the money but answers nothing. */
  private static SubscriptionWorkflow upgradedWithoutAnswer(BillingTestEnvironment t, String sub) {
    t.fake.chargeModeForKey(
        BillingIds.changeChargeKey(sub, "upgrade-a"), ChargeMode.CHARGED_NO_ANSWER);
    t.start(BillingTestEnvironment.requested(sub, ON_THE_15TH, "9.99"));
    t.runUntil("2028-01-20T10:00:00Z");
    SubscriptionWorkflow running = t.existing(sub);
    t.upgradeNowAccepted(running, "upgrade-a");
    while (events(t, HistoryEvent.PAYMENT_PENDING).isEmpty()) {
      t.env.sleep(Duration.ofSeconds(5));
    }
    return running;
  }

  @Test
  void anUpgradeChargeThatSucceededAfterTheCancellationIsRefundedInFull() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow running = upgradedWithoutAnswer(t, "sub-ua");
      running.cancel(
          new CancelRequest("moving", "user:ada", false, true).withRequestId("cancel-a"));
      t.runUntil("2028-01-20T12:00:00Z");

      String upgradeKey = BillingIds.changeChargeKey("sub-ua", "upgrade-a");
      String upgradeTxn = t.fake.succeededCharges().get(upgradeKey);
      assertThat(upgradeTxn).isNotNull();
      assertThat(t.fake.lookups()).extracting(c -> c.input().idempotencyKey()).contains(upgradeKey);
      assertThat(events(t, HistoryEvent.PLAN_CHANGED)).isEmpty();

      String refundKey = BillingIds.refundKey("sub-ua", 1, "upgrade-a");
      RefundInput refund =
          t.fake.refunds().stream()
              .map(Call::input)
              .filter(r -> r.idempotencyKey().equals(refundKey))
              .findFirst()
              .orElseThrow(() -> new AssertionError("the upgrade charge was not refunded"));
      assertThat(refund.transactionId()).isEqualTo(upgradeTxn);
      assertThat(refund.amount()).isEqualTo(PRORATED);

      // One write records the charge (its receipt) and the refund's key before it is sent, and
      // takes the pending upgrade off the subscription: a run restarted from the record after any
      // later step finds the key on the period and never refunds as new.
      RecordInput charged =
          t.fake.writes().stream()
              .filter(w -> w.receipt() != null && upgradeTxn.equals(w.receipt().transactionId()))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no receipt of the upgrade charge"));
      assertThat(charged.receipt().amount()).isEqualTo(PRORATED);
      assertThat(charged.next().lifecycle().upgradeCharge()).isNull();
      assertThat(charged.next().sku()).isEqualTo(charged.previous().sku());
      assertThat(charged.period().refund(refundKey)).isNotNull();
      assertThat(charged.next().lifecycle().upgradesPaid())
          .extracting(dev.billing.domain.PaidUpgradeCharge::transactionId)
          .containsExactly(upgradeTxn);

      Period period = t.fake.period("sub-ua", 1);
      PeriodRefund made = period.refund(refundKey);
      assertThat(made.made()).isTrue();
      assertThat(made.transactionId()).isEqualTo(upgradeTxn);
      assertThat(made.amount()).isEqualTo(PRORATED);
      assertThat(t.fake.notices())
          .extracting(Call::input)
          .filteredOn(n -> n.kind() == NotifyCustomerInput.Kind.REFUND_ISSUED)
          .extracting(NotifyCustomerInput::amount)
          .contains(PRORATED);
      assertThat(t.untyped("sub-ua").describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
      assertThat(
              WorkflowStub.fromTyped(running)
                  .getResult(SubscriptionState.class)
                  .subscription()
                  .status())
          .isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void aRefusedRefundLeavesTheChargeRecordedForAnOperator() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow running = upgradedWithoutAnswer(t, "sub-ub");
      t.fake.refundsRefused();
      running.cancel(new CancelRequest("moving", "user:ada").withRequestId("cancel-b"));
      t.runUntil("2028-01-20T12:00:00Z");

      String upgradeTxn =
          t.fake.succeededCharges().get(BillingIds.changeChargeKey("sub-ub", "upgrade-a"));
      // The money stays with a receipt that says so, the refund's key comes off the period (no
      // money moved), and the history tells the operator to refund it.
      assertThat(t.fake.writes())
          .filteredOn(w -> w.receipt() != null && upgradeTxn.equals(w.receipt().transactionId()))
          .hasSize(1);
      assertThat(t.fake.period("sub-ub", 1).refunds()).isEmpty();
      assertThat(t.fake.writes())
          .extracting(RecordInput::detail)
          .anyMatch(d -> d.contains("refund it by hand"));
      assertThat(t.untyped("sub-ub").describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    }
  }

  @Test
  void anUnansweredRefundIsSentAgainOnItsOwnTimerOnly() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow running = upgradedWithoutAnswer(t, "sub-uc");
      t.fake.refundsUnanswered(1);
      running.cancel(new CancelRequest("moving", "user:ada").withRequestId("cancel-c"));
      t.runUntil("2028-01-21T12:00:00Z");

      String refundKey = BillingIds.refundKey("sub-uc", 1, "upgrade-a");
      // Sends, not the activity's own retries of one send: the first (no answer) and one re-send
      // by its timer, which the gateway answers with the refund it made.
      List<Call<RefundInput>> calls =
          t.fake.refunds().stream()
              .filter(c -> c.input().idempotencyKey().equals(refundKey))
              .toList();
      List<Integer> sends = new java.util.ArrayList<>();
      for (int i = 0; i < calls.size(); i++) {
        if (calls.get(i).attempt() == 1) {
          sends.add(i);
        }
      }
      assertThat(sends).hasSize(2);
      // The re-send waits for its timer after the first send's last try gave up.
      assertThat(
              Duration.between(
                  calls.get(sends.get(1) - 1).startedAt(), calls.get(sends.get(1)).startedAt()))
          .isGreaterThanOrEqualTo(Duration.ofMinutes(1));
      assertThat(t.fake.period("sub-uc", 1).refund(refundKey).made()).isTrue();
      assertThat(t.untyped("sub-uc").describe().getStatus())
          .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED);
    }
  }

  /**
   * A bank may return a debit months after it settled, after its refund: the return still finds the
   * charge (kept among the collected upgrade charges), reverses its receipt, and says that the
   * customer has the money back twice.
   */
  @Test
  void aReturnAfterTheRefundIsRecordedAndFlaggedForRecovery() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow running = upgradedWithoutAnswer(t, "sub-ud");
      running.cancel(new CancelRequest("moving", "user:ada").withRequestId("cancel-d"));
      WorkflowStub.fromTyped(running).getResult(SubscriptionState.class);
      String upgradeKey = BillingIds.changeChargeKey("sub-ud", "upgrade-a");
      String upgradeTxn = t.fake.succeededCharges().get(upgradeKey);
      List<RecordInput> writes = t.fake.writes();
      dev.billing.domain.Subscription record = writes.get(writes.size() - 1).next();
      assertThat(record.lifecycle().upgradesPaid())
          .extracting(dev.billing.domain.PaidUpgradeCharge::transactionId)
          .containsExactly(upgradeTxn);
      int chargesBefore = t.fake.charges().size();
      t.env.sleep(Duration.ofDays(20));

      dev.billing.domain.PaymentEvent returned =
          new dev.billing.domain.PaymentEvent(
              "evt_upgrade_returned",
              "sandbox",
              dev.billing.domain.PaymentEvent.Type.CHARGE_RETURNED,
              "sub-ud",
              1,
              upgradeKey,
              upgradeTxn,
              "R10",
              "Customer advises not authorized",
              t.now());
      t.startAfterEnd(record, List.of(t.fake.period("sub-ud", 1)), returned);

      RecordInput reversal =
          t.fake.writes().stream()
              .filter(w -> w.event() == HistoryEvent.PAYMENT_RETURNED)
              .findFirst()
              .orElseThrow(() -> new AssertionError("the return was not recorded"));
      assertThat(reversal.receipt().amount()).isEqualTo(Money.parse("-8.39", "USD"));
      assertThat(reversal.receipt().transactionId()).isEqualTo(upgradeTxn);
      assertThat(reversal.detail())
          .contains("is written off")
          .contains("8.39 USD of it had been refunded before it came back")
          .contains("recover it");
      assertThat(t.fake.charges()).as("nothing charged after the end").hasSize(chargesBefore);
    }
  }
}
