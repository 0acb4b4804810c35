package dev.billing.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.ChargeRefund;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.Term;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;

/**
 * The scenarios of 1.1.0's checked-in histories ({@code histories/1.1.0/}): each is a path that
 * changed since 1.0.0 behind a {@code Workflow.getVersion} change id.
 */
final class Release110Histories {
  private Release110Histories() {}

  static void record(HistoryFiles files) throws Exception {
    recordUpgradeAfterEndRefunded(files);
    recordGatewayMoney(files);
    recordManualPendingAtChargedAmount(files);
    recordCustomerChanged(files);
    dev.billing.workflows.delivery.DeliveryHistories.record(files.dir());
    recordReactivatedAfterEnd(files);
    recordTermSwitchedNow(files);
    recordTermSwitchedAtPeriodEnd(files);
    recordFirstPayment(files);
    recordTermSwitchedThenCancelledWithRefund(files);
    recordUpgradeChargeDisputed(files);
    BillingDayHistories.recordMovedUpgradedRefunded(files);
  }

  /**
   * {@code term-change}, the re-priced period refunded: 99.00 yearly switched on 2027-06-10 to 9.99
   * monthly (credit 57.08), then cancelled with refundUnused the same day: one refund of 63.40 of
   * the year's charge.
   */
  private static void recordTermSwitchedThenCancelledWithRefund(HistoryFiles files)
      throws Exception {
    BillingSchedule paris =
        new BillingSchedule(YearMonth.of(2027, 1), 31, Term.YEARLY, "Europe/Paris", 3);
    String id = "sub-history-term-refund";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested(id, paris, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");
      SubscriptionWorkflow workflow = t.existing(id);
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MONTHLY",
              Money.parse("9.99", "USD"),
              PlanChangeRequest.Effective.NOW,
              Term.MONTHLY,
              "user:ada",
              "term-refund-h"));
      workflow.cancel(new CancelRequest("moving", "user:ada", false, true, "term-refund-c"));
      t.runUntil("2027-06-12T00:00:00Z");
      assertThat(t.fake.refunds()).hasSize(1);
      assertThat(t.fake.refunds().get(0).input().amount()).isEqualTo(Money.parse("63.40", "USD"));
      files.write(
          t.client,
          id,
          t.fake.refunds().get(0).runId(),
          "term-switched-then-cancelled-with-refund.json");
    }
  }

  /**
   * {@code upgrade-charge-disputes}: an immediate upgrade charged 8.39 by card on 2028-01-20, its
   * charge disputed (recorded twice, once as a redelivery) and the dispute won, then cancelled.
   */
  private static void recordUpgradeChargeDisputed(HistoryFiles files) throws Exception {
    BillingSchedule on15th = new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
    String id = "sub-history-upd";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested(id, on15th, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "PRO-MAX",
              Money.parse("19.99", "USD"),
              PlanChangeRequest.Effective.NOW,
              "user:ada",
              "upgrade-hd"));
      String key = BillingIds.changeChargeKey(id, "upgrade-hd");
      String txn =
          t.fake.writes().stream()
              .filter(w -> w.event() == dev.billing.domain.HistoryEvent.PLAN_CHANGED)
              .reduce((a, b) -> b)
              .orElseThrow()
              .receipt()
              .transactionId();
      PaymentEvent disputed =
          new PaymentEvent(
              "evt_hud_1",
              "sandbox",
              PaymentEvent.Type.CHARGE_DISPUTED,
              id,
              1,
              key,
              txn,
              "fraudulent",
              "disputed: fraudulent",
              Instant.parse("2028-01-22T00:00:00Z"),
              Money.parse("8.39", "USD"),
              List.of());
      workflow.paymentEvent(disputed);
      workflow.paymentEvent(disputed);
      t.runUntil("2028-01-23T00:00:00Z");
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_hud_2",
              "sandbox",
              PaymentEvent.Type.DISPUTE_WON,
              id,
              1,
              key,
              txn,
              null,
              null,
              Instant.parse("2028-01-25T00:00:00Z"),
              Money.parse("8.39", "USD"),
              List.of()));
      t.runUntil("2028-01-26T00:00:00Z");
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(
              t.fake.writes().stream()
                  .filter(w -> w.event() == dev.billing.domain.HistoryEvent.DISPUTE_WON)
                  .count())
          .isEqualTo(1);
      files.write(t.client, id, null, "upgrade-charge-disputed-won.json");
    }
  }

  /**
   * {@code term-change}, now: 9.99 monthly on the 31st (Paris), switched on 2027-02-10 to 99.00
   * yearly: 89.87 charged, cycle 2 due 2028-01-31; the run of the switch plans that date.
   */
  private static void recordTermSwitchedNow(HistoryFiles files) throws Exception {
    BillingSchedule paris =
        new BillingSchedule(YearMonth.of(2027, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
    String id = "sub-history-term-now";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested(id, paris, "9.99"));
      t.runUntil("2027-02-10T10:00:00Z");
      t.existing(id)
          .changePlan(
              new PlanChangeRequest(
                  "PRO-YEARLY",
                  Money.parse("99.00", "USD"),
                  PlanChangeRequest.Effective.NOW,
                  Term.YEARLY,
                  "user:ada",
                  "term-now-h"));
      t.runUntil("2028-01-31T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(3);
      files.write(t.client, id, t.fake.charges().get(1).runId(), "term-switched-now.json");
    }
  }

  /**
   * {@code term-change}, at period end: 99.00 yearly switched on 2027-06-10 to 9.99 monthly from
   * the next cycle; the run that charges cycle 2 on 2028-01-31 records the monthly schedule.
   */
  private static void recordTermSwitchedAtPeriodEnd(HistoryFiles files) throws Exception {
    BillingSchedule paris =
        new BillingSchedule(YearMonth.of(2027, 1), 31, Term.YEARLY, "Europe/Paris", 3);
    String id = "sub-history-term-end";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2027-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested(id, paris, "99.00"));
      t.runUntil("2027-06-10T10:00:00Z");
      t.existing(id)
          .changePlan(
              new PlanChangeRequest(
                  "PRO-MONTHLY",
                  Money.parse("9.99", "USD"),
                  PlanChangeRequest.Effective.PERIOD_END,
                  Term.MONTHLY,
                  "user:ada",
                  "term-end-h"));
      t.runUntil("2028-02-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      files.write(
          t.client, id, t.fake.charges().get(1).runId(), "term-switched-at-period-end.json");
    }
  }

  /**
   * {@code reactivation}: cancelled now on Feb 10 within a paid period (on the 31st, Paris), the
   * workflow started again from the record with the reactivation on Feb 20; that run records it,
   * reminds and charges cycle 2 on Feb 29, and continues as new.
   */
  private static void recordReactivatedAfterEnd(HistoryFiles files) throws Exception {
    BillingSchedule paris =
        new BillingSchedule(YearMonth.of(2028, 1), 31, Term.MONTHLY, "Europe/Paris", 3);
    String id = "sub-history-reactivated";
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = t.start(BillingTestEnvironment.requested(id, paris, "9.99"));
      workflow.created();
      t.runUntil("2028-02-10T09:00:00Z");
      workflow.cancel(new CancelRequest("moving", "user:ada"));
      t.runUntil("2028-02-20T10:00:00Z");
      List<RecordInput> writes = t.fake.writes();
      Subscription ended = writes.get(writes.size() - 1).next();
      assertThat(ended.status()).isEqualTo(dev.billing.domain.SubscriptionStatus.CANCELLED);
      t.reactivateAfterEnd(
          ended,
          List.of(t.fake.period(id, 1), t.fake.period(id, 2)),
          new ReactivateRequest(null, "user:ada", "reactivate-h"));
      t.runUntil("2028-03-01T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      files.write(t.client, id, t.fake.charges().get(1).runId(), "reactivated-after-end.json");
    }
  }

  /**
   * {@code first-payment}: a trial whose first charge is declined is INCOMPLETE (the run that asks
   * the change id, {@code first-payment-trial-declined.json}), retried the next day and two days
   * later, declined again and INCOMPLETE_EXPIRED (the next run, {@code
   * first-payment-expired.json}).
   */
  private static void recordFirstPayment(HistoryFiles files) throws Exception {
    BillingSchedule on15th = new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.script(1, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE);
      SubscriptionWorkflow workflow =
          t.start(
              BillingTestEnvironment.requested("sub-history-first", on15th, "9.99")
                  .withStatus(dev.billing.domain.SubscriptionStatus.TRIALING)
                  .withLifecycle(
                      new dev.billing.domain.Lifecycle(
                          java.time.LocalDate.of(2028, 1, 15), null, null, null, null)));
      workflow.created();
      t.runUntil("2028-01-20T00:00:00Z");
      SubscriptionState end = WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      assertThat(end.subscription().status())
          .isEqualTo(dev.billing.domain.SubscriptionStatus.INCOMPLETE_EXPIRED);
      assertThat(t.fake.charges()).hasSize(3);
      files.write(
          t.client,
          "sub-history-first",
          t.fake.charges().get(0).runId(),
          "first-payment-trial-declined.json");
      files.write(t.client, "sub-history-first", null, "first-payment-expired.json");
    }
  }

  /**
   * {@code customer-change}: cycle 2's reminder bounces; then a new email, locale and time zone
   * (Honolulu to Kiritimati, where Feb 15 has begun): recorded with the bounce cleared, and cycle 2
   * charged at once in the same run.
   */
  private static void recordCustomerChanged(HistoryFiles files) throws Exception {
    BillingSchedule honolulu =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "Pacific/Honolulu", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.mailboxGone(BillingTestEnvironment.EMAIL);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-customer", honolulu, "9.99"));
      workflow.created();
      t.runUntil("2028-02-14T12:00:00Z");
      workflow.changeCustomer(
          new CustomerChange(
              "ada@new.example", "fr-FR", "Pacific/Kiritimati", "user:ada", "customer-h"));
      t.runUntil("2028-02-15T00:00:00Z");
      assertThat(t.fake.charges()).hasSize(2);
      files.write(
          t.client,
          "sub-history-customer",
          t.fake.charges().get(1).runId(),
          "customer-changed.json");
    }
  }

  /**
   * {@code manual-pending-at-charged-amount}: a period left unpaid (0.49 USD carried into 0.98 USD)
   * repaid by hand with a debit that settles later, recorded at the 0.98 USD it charged.
   */
  private static void recordManualPendingAtChargedAmount(HistoryFiles files) throws Exception {
    BillingSchedule on15th = new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.policy(
          new dev.billing.domain.DunningPolicy(
              List.of(2), dev.billing.domain.DunningPolicy.FinalOutcome.LEAVE_UNPAID));
      t.fake.script(2, ChargeMode.SOFT_DECLINE, ChargeMode.SOFT_DECLINE, ChargeMode.PENDING);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-mp", on15th, "0.49"));
      t.runUntil("2028-02-20T00:00:00Z");
      workflow.payNow(new PayNowRequest("user:ada"));
      workflow.paymentEvent(
          new PaymentEvent(
              "evt_mp_settled",
              "sandbox",
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              "sub-history-mp",
              2,
              "charge:sub-history-mp:2:3",
              "txn_sub-history-mp_2_3",
              null,
              null,
              Instant.parse("2028-02-23T00:00:00Z")));
      t.runUntil("2028-02-24T00:00:00Z");
      files.write(t.client, "sub-history-mp", null, "manual-pending-at-charged-amount.json");
    }
  }

  /**
   * {@code gateway-refunds} and {@code card-disputes}: refunds made at the gateway (one named
   * twice, one by its total only), a card dispute opened and won, then a refund after the end that
   * starts the ended run again from the record.
   */
  private static void recordGatewayMoney(HistoryFiles files) throws Exception {
    BillingSchedule on15th = new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-gw", on15th, "9.99"));
      t.runUntil("2028-01-16T00:00:00Z");
      workflow.paymentEvent(
          gatewayMoney("evt_gw_1", PaymentEvent.Type.CHARGE_REFUNDED, "3.00", true));
      workflow.paymentEvent(
          gatewayMoney("evt_gw_1", PaymentEvent.Type.CHARGE_REFUNDED, "3.00", true));
      workflow.paymentEvent(
          gatewayMoney("evt_gw_2", PaymentEvent.Type.CHARGE_REFUNDED, "3.00", false));
      t.runUntil("2028-01-18T00:00:00Z");
      workflow.paymentEvent(
          gatewayMoney("evt_gw_3", PaymentEvent.Type.CHARGE_DISPUTED, "6.99", false));
      t.runUntil("2028-01-20T00:00:00Z");
      workflow.paymentEvent(gatewayMoney("evt_gw_4", PaymentEvent.Type.DISPUTE_WON, "6.99", false));
      t.runUntil("2028-01-22T00:00:00Z");
      workflow.cancel(new CancelRequest("moving away", "user:ada"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-gw", null, "gateway-refund-disputed-won.json");
      List<RecordInput> writes = t.fake.writes();
      Subscription record = writes.get(writes.size() - 1).next();
      PaymentEvent late =
          gatewayMoney("evt_gw_5", PaymentEvent.Type.CHARGE_REFUNDED, "5.00", false);
      t.startAfterEnd(record, List.of(t.fake.period("sub-history-gw", 1)), late);
      files.write(t.client, "sub-history-gw", null, "gateway-refund-after-end.json");
    }
  }

  private static PaymentEvent gatewayMoney(
      String id, PaymentEvent.Type type, String amount, boolean listed) {
    Money money = Money.parse(amount, "USD");
    return new PaymentEvent(
        id,
        "sandbox",
        type,
        "sub-history-gw",
        1,
        "charge:sub-history-gw:1:1",
        "txn_sub-history-gw_1",
        type == PaymentEvent.Type.CHARGE_DISPUTED ? "fraudulent" : null,
        type == PaymentEvent.Type.CHARGE_DISPUTED ? "disputed: fraudulent" : null,
        Instant.parse("2028-01-17T00:00:00Z"),
        money,
        listed ? List.of(new ChargeRefund("re_gw_1", money, null, null)) : List.of());
  }

  /**
   * {@code upgrade-after-end-refunded}: an upgrade's charge without an answer, the subscription
   * cancelled, the run kept open to look it up; it succeeded, so it is recorded and refunded.
   */
  private static void recordUpgradeAfterEndRefunded(HistoryFiles files) throws Exception {
    BillingSchedule onThe15th =
        new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "America/New_York", 3);
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.fake.chargeModeForKey(
          BillingIds.changeChargeKey("sub-history-upae", "upgrade-h"),
          ChargeMode.CHARGED_NO_ANSWER);
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-history-upae", onThe15th, "9.99"));
      workflow.created();
      t.runUntil("2028-01-20T10:00:00Z");
      t.upgradeNowAccepted(workflow, "upgrade-h");
      t.env.sleep(Duration.ofSeconds(10));
      workflow.cancel(
          new CancelRequest("moving", "user:ada", false, true).withRequestId("cancel-h"));
      WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class);
      files.write(t.client, "sub-history-upae", null, "upgrade-after-end-refunded.json");
    }
  }
}
