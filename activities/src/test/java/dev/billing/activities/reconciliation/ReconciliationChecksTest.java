package dev.billing.activities.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.billing.activities.payments.GatewayChargeRequest;
import dev.billing.activities.payments.GatewayEvent;
import dev.billing.activities.payments.PaymentEventIntake;
import dev.billing.activities.payments.RefundRequest;
import dev.billing.activities.payments.sandbox.SandboxGateway;
import dev.billing.activities.payments.sandbox.SandboxPaymentMethods;
import dev.billing.domain.BillingIds;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.PaymentEvent;
import dev.billing.domain.PendingUpgradeCharge;
import dev.billing.domain.Period;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.Process;
import dev.billing.domain.Receipt;
import dev.billing.domain.RecordInput;
import dev.billing.domain.Subscription;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.reconciliation.CheckResult;
import dev.billing.domain.reconciliation.Finding;
import dev.billing.domain.reconciliation.FindingKind;
import dev.billing.domain.reconciliation.Repair;
import dev.billing.store.PageRequest;
import dev.billing.workflows.PauseRequest;
import dev.billing.workflows.PlanChangeRequest;
import dev.billing.workflows.ResumeRequest;
import dev.billing.workflows.SubscriptionWorkflow;
import dev.billing.workflows.activities.SubscriptionCheckInput;
import dev.billing.workflows.activities.WindowCheckInput;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The three checks against DynamoDB Local, the Temporal test server running the real subscription
 * workflow, and the sandbox gateway: each kind of drift set up for real, then found and repaired.
 */
@Timeout(120)
class ReconciliationChecksTest {
  private static final LocalDate DUE = LocalDate.of(2026, 3, 2);
  private static final Runnable NO_HEARTBEAT = () -> {};

  @Test
  void
      driftMissingAndClosedWorkflowsAreRestartedFromTheRecordAndAStuckOneIsSentTheGatewaysOutcome() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      f.subscribe("acc-ok", "sub-ok"); // healthy: billed on the 2nd by its workflow
      f.subscribe("acc-ended", "sub-ended"); // its workflow will be terminated
      f.recordOnly("acc-lost", "sub-lost"); // no workflow at all
      f.stuckAfterCharge("acc-stuck", "sub-stuck", SubscriptionStatus.ACTIVE);
      WorkflowStub.fromTyped(
              f.client.newWorkflowStub(SubscriptionWorkflow.class, "subscription-sub-ended"))
          .terminate("operator mistake");
      f.runUntil("2026-03-02T00:03:00Z");
      String stuckTxn = SandboxGateway.transactionId("charge:sub-stuck:1:1");
      Instant asOf = Instant.parse("2026-03-02T06:00:00Z"); // the run's time: past due + grace
      // sub-ok was billed and moved on to April: it is not in March 2nd's partition any more.
      assertThat(f.queries.duePayments(DUE, null, 10).items())
          .extracting(d -> d.subscriptionId())
          .containsExactlyInAnyOrder("sub-lost", "sub-ended", "sub-stuck");

      FindingLog log = f.log("run-1", asOf);
      String cursor =
          f.drift().checkPage(new DueCheckInput("run-1", DUE, null, asOf, true), log, NO_HEARTBEAT);

      assertThat(cursor).isNull();
      assertThat(log.findings())
          .extracting(Finding::kind, Finding::subscriptionId, Finding::repair)
          .containsExactlyInAnyOrder(
              tuple(FindingKind.WORKFLOW_MISSING, "sub-lost", Repair.WORKFLOW_RESTARTED),
              tuple(FindingKind.WORKFLOW_CLOSED, "sub-ended", Repair.WORKFLOW_RESTARTED),
              tuple(FindingKind.PAYMENT_OVERDUE, "sub-stuck", Repair.WORKFLOW_SIGNALLED));
      Finding closed = byKind(log, FindingKind.WORKFLOW_CLOSED);
      assertThat(closed.detail())
          .startsWith("workflow subscription-sub-ended ended TERMINATED at ")
          .contains("while the record is ACTIVE (version 1, cycle 1 due 2026-03-02)")
          .endsWith("; restarted from the record with 0 open period(s)");
      Finding overdue = byKind(log, FindingKind.PAYMENT_OVERDUE);
      assertThat(overdue.reference()).isEqualTo("charge:sub-stuck:1:1");
      // The diagnosis names the activity that is stuck and why.
      assertThat(overdue.detail())
          .contains("the workflow runs: RecordChange attempt ")
          .contains("last failure: Stale write of subscription sub-stuck")
          .endsWith(
              "the gateway says SUCCEEDED; signalled CHARGE_SUCCEEDED (reconciliation:"
                  + stuckTxn
                  + ":charge_succeeded); effect decided by the workflow, which acts only on a period it"
                  + " holds open: the next run finds this again if nothing changed");
      assertThat(f.signalledEventIds("sub-stuck"))
          .containsExactly("reconciliation:" + stuckTxn + ":charge_succeeded");

      // The restarted runs bill at once (their due instant has passed), with attempt 1's key.
      f.runUntil("2026-03-02T00:06:00Z");
      assertThat(f.store.getSubscription("acc-lost", "sub-lost").orElseThrow().nextPaymentDate())
          .isEqualTo(LocalDate.of(2026, 4, 2));
      assertThat(f.store.getSubscription("acc-ended", "sub-ended").orElseThrow().nextPaymentDate())
          .isEqualTo(LocalDate.of(2026, 4, 2));
      assertThat(f.queries.period("acc-lost", "sub-lost", 1))
          .get()
          .extracting(p -> p.status())
          .isEqualTo(PeriodStatus.COMPLETED);
      assertThat(f.sandbox.charges())
          .extracting(c -> c.idempotencyKey())
          .containsExactlyInAnyOrder(
              "charge:sub-ok:1:1",
              "charge:sub-ended:1:1",
              "charge:sub-lost:1:1",
              "charge:sub-stuck:1:1");

      // Run again: the restarted ones are fine now; the stuck one is still stuck.
      FindingLog again = f.log("run-2", asOf);
      f.drift().checkPage(new DueCheckInput("run-2", DUE, null, asOf, true), again, NO_HEARTBEAT);
      // The signal changed nothing (the workflow is stuck behind RecordChange): said so, not
      // re-sent.
      assertThat(again.findings())
          .extracting(Finding::kind, Finding::subscriptionId, Finding::repair)
          .containsExactly(tuple(FindingKind.PAYMENT_OVERDUE, "sub-stuck", Repair.NONE));
      assertThat(again.findings().get(0).detail())
          .endsWith(
              "the gateway says SUCCEEDED, and the"
                  + " workflow's run already received reconciliation:"
                  + stuckTxn
                  + ":charge_succeeded: the signal"
                  + " changed nothing (not sent again); the workflow is stuck or does not hold the period open,"
                  + " see its pending activity and state query");
      assertThat(f.signalledEventIds("sub-stuck"))
          .containsExactly("reconciliation:" + stuckTxn + ":charge_succeeded");
    }
  }

  @Test
  void anOpenEndedPauseWhoseWorkflowIsGoneIsRestartedWhenNamedAndCanBeResumed() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      SubscriptionWorkflow paused = f.subscribe("acc-p", "sub-p");
      paused.pause(new PauseRequest(null, null, "on hold", "ops"));
      // The pause's activities done first: terminated while one was in flight, the test server's
      // clock never moved on (the next runUntil hung).
      f.runUntil("2026-03-01T00:01:00Z");
      WorkflowStub.fromTyped(paused).terminate("operator mistake");
      f.runUntil("2026-03-05T00:00:00Z");
      Subscription record = f.store.getSubscription("acc-p", "sub-p").orElseThrow();
      assertThat(record.status()).isEqualTo(SubscriptionStatus.PAUSED);
      assertThat(record.nextPaymentDate()).as("no date: no due-date window ever lists it").isNull();
      Instant asOf = f.now();

      CheckResult result =
          f.activities(10, 10)
              .checkSubscription(new SubscriptionCheckInput("one", "acc-p", "sub-p", asOf, true));

      assertThat(result.examined()).isEqualTo(1);
      assertThat(result.findings()).containsExactly(Map.entry(FindingKind.WORKFLOW_CLOSED, 1));
      assertThat(result.repaired()).isEqualTo(1);
      assertThat(f.reports.findings("one", f.now(), PageRequest.first(10)).items())
          .singleElement()
          .satisfies(
              finding ->
                  assertThat(finding.detail())
                      .contains("ended TERMINATED")
                      .contains("while the record is PAUSED")
                      .endsWith("; restarted from the record with 0 open period(s)"));
      SubscriptionWorkflow restarted =
          f.client.newWorkflowStub(SubscriptionWorkflow.class, BillingIds.workflowId("sub-p"));
      assertThat(restarted.state().subscription().status()).isEqualTo(SubscriptionStatus.PAUSED);

      // Resumed on March 5th: billed from the next billing day, April 2nd. Paused before its first
      // charge, it never paid: INCOMPLETE until that charge succeeds.
      assertThat(restarted.resume(new ResumeRequest("ops")).subscription().status())
          .isEqualTo(SubscriptionStatus.INCOMPLETE);
      assertThat(f.store.getSubscription("acc-p", "sub-p").orElseThrow().nextPaymentDate())
          .isEqualTo(LocalDate.of(2026, 4, 2));

      // Named again while its workflow runs: nothing to find.
      CheckResult again =
          f.activities(10, 10)
              .checkSubscription(
                  new SubscriptionCheckInput("two", "acc-p", "sub-p", f.now(), true));
      assertThat(again.examined()).isEqualTo(1);
      assertThat(again.findings()).isEmpty();
    }
  }

  @Test
  void aDryRunReportsWithoutTouchingAnythingAndAStatusMismatchIsReported() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      f.recordOnly("acc-lost", "sub-lost");
      f.subscribe("acc-odd", "sub-odd");
      f.outOfBandWrite("acc-odd", "sub-odd", SubscriptionStatus.PAST_DUE);
      Instant asOf = f.now();

      FindingLog log = f.log("dry", asOf);
      f.drift().checkPage(new DueCheckInput("dry", DUE, null, asOf, false), log, NO_HEARTBEAT);

      assertThat(log.findings())
          .extracting(Finding::kind, Finding::subscriptionId, Finding::repair)
          .containsExactlyInAnyOrder(
              tuple(FindingKind.WORKFLOW_MISSING, "sub-lost", Repair.NONE),
              tuple(FindingKind.STATUS_MISMATCH, "sub-odd", Repair.NONE));
      assertThat(byKind(log, FindingKind.WORKFLOW_MISSING).detail())
          .isEqualTo(
              "no workflow subscription-sub-lost while the record is ACTIVE (version 1, cycle 1 due"
                  + " 2026-03-02); not restarted (report only)");
      assertThat(byKind(log, FindingKind.STATUS_MISMATCH).detail())
          .startsWith("the record says PAST_DUE, the workflow's BillingStatus says ACTIVE");
      assertThat(f.ops.describe("sub-lost").state()).isEqualTo(WorkflowView.State.MISSING);
    }
  }

  @Test
  void chargesAreComparedWithPeriodsAndReceiptsAndTheGapsRepairedOrReported() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      f.subscribe("acc-ok", "sub-ok");
      f.stuckAfterCharge("acc-stuck", "sub-stuck", SubscriptionStatus.ACTIVE);
      f.runUntil("2026-03-02T00:03:00Z");
      String stuckTxn = SandboxGateway.transactionId("charge:sub-stuck:1:1");
      String ghostTxn = f.chargeAtGateway("sub-ghost", 4, 1);
      String okTxn = SandboxGateway.transactionId(BillingIds.chargeKey("sub-ok", 1, 1));
      f.sandbox.refund(new RefundRequest("refund:sub-ok:1", okTxn, new Money(300, "USD"), null));
      deleteReceipts("acc-ok", f);
      f.store.createReceipt(
          new Receipt(
              "acc-ok",
              "sub-ok",
              1,
              "pro-monthly",
              "ana@example.com",
              ReconciliationFixture.PRICE,
              Instant.parse("2026-03-02T00:30:00Z"),
              "ch_forged",
              "Visa •••• 4242",
              null));
      Instant asOf = Instant.parse("2026-03-03T03:00:00Z");

      FindingLog log = f.log("run-1", asOf);
      f.charges().check(new DayCheckInput("run-1", DUE, asOf, true), log, NO_HEARTBEAT);
      CheckResult result = log.finish(f.reports, asOf, null);

      assertThat(log.findings())
          .extracting(Finding::kind, Finding::subscriptionId, Finding::reference, Finding::repair)
          .containsExactlyInAnyOrder(
              tuple(FindingKind.RECEIPT_MISSING, "sub-ok", okTxn, Repair.RECEIPT_CREATED),
              tuple(FindingKind.REFUND_NOT_RECORDED, "sub-ok", okTxn, Repair.WORKFLOW_SIGNALLED),
              tuple(FindingKind.RECEIPT_WITHOUT_CHARGE, "sub-ok", "ch_forged", Repair.NONE),
              tuple(
                  FindingKind.CHARGE_NOT_RECORDED,
                  "sub-stuck",
                  stuckTxn,
                  Repair.WORKFLOW_SIGNALLED),
              tuple(FindingKind.CHARGE_WITHOUT_PERIOD, "sub-ghost", ghostTxn, Repair.NONE));
      assertThat(result.examined()).isEqualTo(3);
      assertThat(result.repaired()).as("the receipt written; a signal is not counted").isEqualTo(1);
      assertThat(result.findings()).containsEntry(FindingKind.RECEIPT_MISSING, 1).hasSize(5);
      assertThat(byKind(log, FindingKind.REFUND_NOT_RECORDED).detail())
          .startsWith(
              "the gateway refunded 3.00 USD of " + okTxn + ", period 1 records no refund of it")
          .contains("signalled CHARGE_REFUNDED (reconciliation:" + okTxn + ":refunded:300)");
      assertThat(byKind(log, FindingKind.CHARGE_NOT_RECORDED).detail())
          .isEqualTo(
              "charge "
                  + stuckTxn
                  + " (9.99 USD, key charge:sub-stuck:1:1) succeeded, but period 1 is not recorded; signalled"
                  + " CHARGE_SUCCEEDED (reconciliation:"
                  + stuckTxn
                  + ":charge_succeeded); effect decided by the"
                  + " workflow, which acts only on a period it holds open: the next run finds this again if"
                  + " nothing changed");
      // The receipt is back, dated when the gateway made the charge (as the workflow dates it).
      Instant chargedAt =
          f.sandbox.charges().stream()
              .filter(c -> c.transactionId().equals(okTxn))
              .findFirst()
              .orElseThrow()
              .at();
      assertThat(f.queries.receiptsBetween("acc-ok", Instant.parse("2026-03-02T00:00:00Z"), asOf))
          .filteredOn(r -> r.transactionId().equals(okTxn))
          .extracting(Receipt::processedAt, Receipt::amount, Receipt::cycle)
          .containsExactly(tuple(chargedAt, ReconciliationFixture.PRICE, 1L));
      assertThat(f.signalledEventIds("sub-stuck"))
          .containsExactly("reconciliation:" + stuckTxn + ":charge_succeeded");
      assertThat(f.reports.findings("run-1", asOf, PageRequest.first(50)).items()).hasSize(5);
      assertThat(f.noticed).hasSize(5);

      // The workflow records the refund the gateway listed, under its id, as the webhook would.
      f.runUntil("2026-03-02T00:10:00Z");
      Period refunded = f.store.getPeriod("acc-ok", "sub-ok", 1).orElseThrow();
      assertThat(refunded.status()).isEqualTo(PeriodStatus.REFUNDED);
      assertThat(refunded.refunded()).isEqualTo(new Money(300, "USD"));
      assertThat(refunded.refunds())
          .singleElement()
          .satisfies(
              r -> assertThat(r.refundId()).isEqualTo(f.sandbox.refunds().get(0).refundId()));

      // Repaired receipts and refunds stay repaired.
      FindingLog again = f.log("run-2", asOf);
      f.charges().check(new DayCheckInput("run-2", DUE, asOf, true), again, NO_HEARTBEAT);
      assertThat(again.findings())
          .extracting(Finding::kind)
          .doesNotContain(FindingKind.RECEIPT_MISSING, FindingKind.REFUND_NOT_RECORDED);
    }
  }

  @Test
  void aReturnAfterTheSubscriptionEndedIsRecordedByStartingItsWorkflowAgain() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      // As a settle-only run leaves it: cancelled, period 1 collected by a debit, no workflow.
      Subscription created = f.recordOnly("acc-ret", "sub-ret");
      f.runUntil("2026-03-02T00:05:00Z");
      String txn =
          f.sandbox
              .charge(
                  new GatewayChargeRequest(
                      BillingIds.chargeKey("sub-ret", 1, 1),
                      ReconciliationFixture.PRICE,
                      SandboxPaymentMethods.BANK_DEBIT_RETURNED,
                      "test",
                      Map.of(
                          GatewayChargeRequest.SUBSCRIPTION_ID,
                          "sub-ret",
                          GatewayChargeRequest.CYCLE,
                          "1")))
              .transactionId();
      Instant settled = Instant.parse("2026-03-05T00:10:00Z");
      f.store.updateSubscription(
          new RecordInput(
              "cycle-1/charge-1/settled",
              created,
              created.withStatus(SubscriptionStatus.CANCELLED).withVersion(2),
              HistoryEvent.PAYMENT_SUCCEEDED,
              Process.WEBHOOK,
              "system",
              "settled",
              new Period(
                  "acc-ret",
                  "sub-ret",
                  1,
                  DUE,
                  ReconciliationFixture.PRICE,
                  PeriodStatus.COMPLETED,
                  1,
                  txn,
                  null,
                  null,
                  settled),
              null,
              settled));
      f.runUntil("2026-03-08T00:00:00Z"); // settled on the 5th, returned on the 7th
      Instant asOf = f.now();

      FindingLog log = f.log("run-r", asOf);
      f.charges().check(new DayCheckInput("run-r", DUE, asOf, true), log, NO_HEARTBEAT);

      assertThat(log.findings())
          .extracting(Finding::kind, Finding::reference, Finding::repair)
          .contains(tuple(FindingKind.RETURN_NOT_RECORDED, txn, Repair.WORKFLOW_RESTARTED));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  f.store.getPeriod("acc-ret", "sub-ret", 1).orElseThrow().status()
                      == PeriodStatus.ERROR);
      Subscription after = f.store.getSubscription("acc-ret", "sub-ret").orElseThrow();
      assertThat(after.status()).isEqualTo(SubscriptionStatus.CANCELLED);
      assertThat(f.sandbox.charges()).as("nothing charged after the end").hasSize(1);
    }
  }

  @Test
  void anUpgradesChargeIsThePlanChangesCollectionWhileASecondChargeOfThePeriodIsStillFound() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      SubscriptionWorkflow workflow = f.subscribe("acc-up", "sub-up");
      f.runUntil("2026-03-10T12:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest(
              "pro-plus", new Money(1999, "USD"), PlanChangeRequest.Effective.NOW, "ana"));
      String periodTxn = f.queries.period("acc-up", "sub-up", 1).orElseThrow().transactionId();
      String upgradeTxn =
          f.sandbox.charges().stream()
              .filter(c -> BillingIds.isChangeChargeKey("sub-up", c.idempotencyKey()))
              .findFirst()
              .orElseThrow()
              .transactionId();
      String secondTxn = f.chargeAtGateway("sub-up", 1, 2);
      Instant asOf = Instant.parse("2026-03-11T03:00:00Z");

      FindingLog log = f.log("run-up", asOf);
      f.charges()
          .check(
              new DayCheckInput("run-up", LocalDate.of(2026, 3, 10), asOf, true),
              log,
              NO_HEARTBEAT);

      assertThat(log.findings())
          .extracting(Finding::kind, Finding::reference, Finding::repair)
          .containsExactly(tuple(FindingKind.CHARGE_WITHOUT_PERIOD, secondTxn, Repair.NONE));
      assertThat(log.findings().get(0).detail())
          .isEqualTo(
              "charge "
                  + secondTxn
                  + " (9.99 USD, key charge:sub-up:1:2) succeeded for cycle 1, which is COMPLETED with "
                  + periodTxn
                  + ": a second charge for one period; refund this charge ("
                  + secondTxn
                  + "), not the one the period records");
      assertThat(upgradeTxn).isNotEqualTo(periodTxn);
    }
  }

  @Test
  void anUpgradesChargeWhoseKeyTheRecordHoldsPendingIsNotAdvisedForARefundUntilItIsNoLonger() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      // No workflow records the charge: the record alone says whether one waits for it.
      Subscription created = f.recordOnly("acc-pend", "sub-pend");
      f.runUntil("2026-03-10T12:00:00Z");
      String key = BillingIds.changeChargeKey("sub-pend", "req-upgrade");
      String txn =
          f.sandbox
              .charge(
                  new GatewayChargeRequest(
                      key,
                      new Money(645, "USD"),
                      ReconciliationFixture.VISA.token(),
                      "upgrade to pro-plus",
                      Map.of(
                          GatewayChargeRequest.SUBSCRIPTION_ID,
                          "sub-pend",
                          GatewayChargeRequest.CYCLE,
                          "1")))
              .transactionId();
      Subscription waiting =
          created
              .withLifecycle(
                  created
                      .lifecycle()
                      .withUpgradeCharge(
                          new PendingUpgradeCharge(
                              "req-upgrade",
                              key,
                              "pro-plus",
                              new Money(1999, "USD"),
                              new Money(645, "USD"),
                              1,
                              ReconciliationFixture.VISA,
                              f.now())))
              .withVersion(created.version() + 1);
      f.store.updateSubscription(
          new RecordInput(
              "upgrade/req-upgrade/pending",
              created,
              waiting,
              HistoryEvent.PAYMENT_PENDING,
              Process.API,
              "ana",
              "upgrade charge sent, outcome unknown",
              null,
              null,
              f.now()));
      Instant asOf = Instant.parse("2026-03-11T03:00:00Z");
      DayCheckInput day = new DayCheckInput("run-p", LocalDate.of(2026, 3, 10), asOf, true);

      FindingLog pending = f.log("run-p", asOf);
      f.charges().check(day, pending, NO_HEARTBEAT);

      assertThat(pending.findings())
          .extracting(Finding::kind, Finding::reference, Finding::repair)
          .containsExactly(tuple(FindingKind.CHARGE_NOT_RECORDED, txn, Repair.NONE));
      assertThat(pending.findings().get(0).detail())
          .contains("its key is pending on the record")
          .endsWith("do not refund it by hand")
          .doesNotContain("refund this charge");

      // The record no longer waits for the key (the update that charged it was lost).
      f.store.updateSubscription(
          new RecordInput(
              "operator-edit",
              waiting,
              waiting
                  .withLifecycle(waiting.lifecycle().withUpgradeCharge(null))
                  .withVersion(waiting.version() + 1),
              HistoryEvent.PAYMENT_METHOD_CHANGED,
              Process.API,
              "operator",
              "edited by hand",
              null,
              null,
              f.now()));

      FindingLog lost = f.log("run-q", asOf);
      f.charges().check(day, lost, NO_HEARTBEAT);

      assertThat(lost.findings())
          .extracting(Finding::kind, Finding::reference, Finding::repair)
          .containsExactly(tuple(FindingKind.CHARGE_NOT_RECORDED, txn, Repair.NONE));
      assertThat(lost.findings().get(0).detail())
          .contains("the plan change that made it was not recorded")
          .endsWith("if the subscription's plan did not change, refund this charge")
          .doesNotContain("do not refund");
      assertThat(f.sandbox.refunds()).as("the check refunds nothing itself").isEmpty();
    }
  }

  @Test
  void missedWebhooksAreReplayedThroughTheWebhooksOwnHandlingOnce() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      f.stuckAfterCharge("acc-stuck", "sub-stuck", SubscriptionStatus.ACTIVE);
      f.runUntil("2026-03-02T00:03:00Z");
      f.chargeAtGateway("sub-ghost", 4, 1);
      // The range is [from, to): the ghost's charge may carry this very millisecond.
      List<GatewayEvent> listed =
          f.sandbox.listEvents(Instant.parse("2026-03-02T00:00:00Z"), f.now().plusSeconds(1));
      assertThat(listed).hasSize(2);
      GatewayEvent delivered =
          listed.stream()
              .filter(e -> e.subscriptionId().equals("sub-ghost"))
              .findFirst()
              .orElseThrow();
      GatewayEvent missed =
          listed.stream()
              .filter(e -> e.subscriptionId().equals("sub-stuck"))
              .findFirst()
              .orElseThrow();
      // sub-ghost's webhook did arrive (stored by the endpoint).
      new PaymentEventIntake(f.events, f.ops)
          .accept(GatewayOutcomes.stored("sandbox", delivered, f.now()), null);
      Instant asOf = Instant.parse("2026-03-03T03:00:00Z");

      FindingLog log = f.log("run-1", asOf);
      f.replay().replay(new DayCheckInput("run-1", DUE, asOf, true), log, NO_HEARTBEAT);

      assertThat(log.findings())
          .extracting(Finding::kind, Finding::subscriptionId, Finding::reference, Finding::repair)
          .containsExactly(
              tuple(FindingKind.WEBHOOK_MISSED, "sub-stuck", missed.id(), Repair.EVENT_REPLAYED));
      assertThat(log.findings().get(0).detail())
          .isEqualTo(
              "charge.succeeded "
                  + missed.id()
                  + " of "
                  + missed.transactionId()
                  + " ("
                  + missed.occurredAt()
                  + ") never arrived as a webhook;"
                  + " stored and signalled to the workflow");
      assertThat(f.events.find("sandbox", missed.id()))
          .get()
          .extracting(e -> e.paymentEventType(), e -> e.summary())
          .containsExactly(
              PaymentEvent.Type.CHARGE_SUCCEEDED,
              Map.of("amount", "9.99", "currency", "USD", "receivedBy", "reconciliation"));
      assertThat(f.signalledEventIds("sub-stuck")).containsExactly(missed.id());

      FindingLog again = f.log("run-2", asOf);
      f.replay().replay(new DayCheckInput("run-2", DUE, asOf, true), again, NO_HEARTBEAT);
      assertThat(again.findings()).isEmpty();
      assertThat(f.signalledEventIds("sub-stuck")).hasSize(1);
    }
  }

  @Test
  void aCallStopsAfterItsBudgetWithACursorAndTheNextCallGoesOnFromThere() {
    try (ReconciliationFixture f = new ReconciliationFixture("2026-03-01T00:00:00Z")) {
      for (String id : List.of("sub-a", "sub-b", "sub-c")) {
        f.recordOnly("acc-" + id, id);
      }
      Instant asOf = f.now();
      ReconciliationActivitiesImpl steps = f.activities(2, 2);
      WindowCheckInput window =
          new WindowCheckInput("run-w", LocalDate.of(2026, 2, 28), DUE, null, asOf, false);

      CheckResult first = steps.checkDueSubscriptions(window);
      assertThat(first.examined()).isEqualTo(2);
      assertThat(first.nextCursor()).startsWith("2026-03-02|");
      CheckResult second =
          steps.checkDueSubscriptions(
              new WindowCheckInput(
                  "run-w", window.from(), window.to(), first.nextCursor(), asOf, false));
      assertThat(second.examined()).isEqualTo(1);
      assertThat(second.nextCursor()).isNull();
      assertThat(f.reports.findings("run-w", asOf, PageRequest.first(10)).items())
          .extracting(Finding::subscriptionId)
          .containsExactlyInAnyOrder("sub-a", "sub-b", "sub-c");

      // Days are never split: the gateway checks stop after the day that used up the budget.
      f.chargeAtGateway("sub-x", 1, 1);
      f.chargeAtGateway("sub-y", 1, 1);
      f.chargeAtGateway("sub-z", 1, 1);
      Instant later = Instant.parse("2026-03-05T00:00:00Z");
      CheckResult charges =
          steps.compareGatewayCharges(
              new WindowCheckInput(
                  "run-w", LocalDate.of(2026, 3, 1), LocalDate.of(2026, 3, 3), null, later, false));
      assertThat(charges.examined()).isEqualTo(3);
      assertThat(charges.nextCursor()).isEqualTo("2026-03-02");
    }
  }

  private static Finding byKind(FindingLog log, FindingKind kind) {
    return log.findings().stream().filter(x -> x.kind() == kind).findFirst().orElseThrow();
  }

  private static void deleteReceipts(String account, ReconciliationFixture f) {
    f.dynamo
        .query(
            r ->
                r.tableName(f.tables.billing())
                    .keyConditionExpression("PK = :pk AND begins_with(SK, :rec)")
                    .expressionAttributeValues(
                        Map.of(
                            ":pk",
                            AttributeValue.fromS("ACC#" + account),
                            ":rec",
                            AttributeValue.fromS("REC#"))))
        .items()
        .forEach(
            item ->
                f.dynamo.deleteItem(
                    r ->
                        r.tableName(f.tables.billing())
                            .key(Map.of("PK", item.get("PK"), "SK", item.get("SK")))));
  }
}
