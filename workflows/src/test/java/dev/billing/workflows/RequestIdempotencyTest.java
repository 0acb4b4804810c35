package dev.billing.workflows;

import static dev.billing.workflows.Refusals.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.billing.domain.BillingIds;
import dev.billing.domain.BillingSchedule;
import dev.billing.domain.HistoryEvent;
import dev.billing.domain.Money;
import dev.billing.domain.Period;
import dev.billing.domain.RecordInput;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.domain.Term;
import dev.billing.workflows.AppliedRequest.Status;
import dev.billing.workflows.FakeBillingActivities.ChargeMode;
import dev.billing.workflows.PlanChangeRequest.Effective;
import dev.billing.workflows.activities.ChargeInput;
import dev.billing.workflows.activities.ChargeLookupInput;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Client request ids: a retry is answered as the first time and moves no money twice, across the
 * writes in between and across continue-as-new; an id reused for another request is refused; a
 * charge or refund without an answer is pending, then resolved by asking the gateway. Cycle 1 is
 * due 2028-01-15 and paid then; its period runs to 2028-02-15 (31 days); cycle 2's reminder goes
 * out on 2028-02-12.
 */
@Timeout(60)
class RequestIdempotencyTest {

  private static final BillingSchedule ON_THE_15TH =
      new BillingSchedule(YearMonth.of(2028, 1), 15, Term.MONTHLY, "UTC", 3);

  private static Money usd(String amount) {
    return Money.parse(amount, "USD");
  }

  private static PlanChangeRequest upgrade(String price, String requestId) {
    return new PlanChangeRequest("PRO-MAX", usd(price), Effective.NOW, "user:ada", requestId);
  }

  /** As the API sends it: the request id is the update id too. */
  private static SubscriptionState changePlan(
      BillingTestEnvironment t, String sub, PlanChangeRequest request) {
    SubscriptionWorkflow workflow = t.existing(sub);
    return awaitSkipping(
        t, WorkflowClient.startUpdate(workflow::changePlan, request, accepted(request)));
  }

  private static SubscriptionState refund(
      BillingTestEnvironment t, String sub, RefundRequest request) {
    SubscriptionWorkflow workflow = t.existing(sub);
    return awaitSkipping(
        t, WorkflowClient.startUpdate(workflow::refundPeriod, request, accepted(request)));
  }

  private static UpdateOptions<SubscriptionState> accepted(UpdateRequest<?> request) {
    return UpdateOptions.newBuilder(SubscriptionState.class)
        .setUpdateId(request.requestId())
        .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
        .build();
  }

  /**
   * The test server skips time only while the test sleeps, so an update whose activity is retried
   * (a gateway without an answer) is awaited in small steps of workflow time.
   */
  private static SubscriptionState awaitSkipping(
      BillingTestEnvironment t, WorkflowUpdateHandle<SubscriptionState> handle) {
    CompletableFuture<SubscriptionState> result = handle.getResultAsync();
    while (!result.isDone()) {
      t.env.sleep(Duration.ofSeconds(1));
    }
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause
          ? cause
          : new IllegalStateException(e.getCause());
    }
  }

  private static List<ChargeInput> upgradeCharges(BillingTestEnvironment t, String sub) {
    return t.fake.charges().stream()
        .map(FakeBillingActivities.Call::input)
        .filter(c -> BillingIds.isChangeChargeKey(sub, c.idempotencyKey()))
        .toList();
  }

  private static List<RecordInput> events(BillingTestEnvironment t, HistoryEvent event) {
    return t.fake.writes().stream().filter(w -> w.event() == event).toList();
  }

  @Test
  void aRetriedUpgradeAfterAReminderUsesTheSameKeyAndChargesOnce() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-retry", "upgrade-1");
      t.fake.chargeModeForKey(key, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true);
      t.start(BillingTestEnvironment.requested("sub-retry", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");

      SubscriptionState first = changePlan(t, "sub-retry", upgrade("19.99", "upgrade-1"));

      assertThat(first.request().status()).isEqualTo(Status.PENDING);
      assertThat(first.subscription().sku()).isEqualTo(BillingTestEnvironment.SKU);
      t.runUntil("2028-02-13T00:00:00Z");
      assertThat(t.fake.reminders()).hasSize(2); // cycle 2's reminder moved the version
      // The client retries under another update id (a new connection): the workflow knows the
      // request.
      SubscriptionState again = t.existing("sub-retry").changePlan(upgrade("19.99", "upgrade-1"));
      assertThat(again.request().status()).isEqualTo(Status.PENDING);
      t.runUntil("2028-02-16T00:00:00Z"); // cycle 2 charged: a new run
      SubscriptionState later = changePlan(t, "sub-retry", upgrade("19.99", "upgrade-1"));
      assertThat(later.request().status()).isEqualTo(Status.PENDING);

      t.fake.lookupsDown(false);
      t.runUntil("2028-02-17T00:00:00Z");

      assertThat(upgradeCharges(t, "sub-retry"))
          .extracting(ChargeInput::idempotencyKey)
          .containsOnly(key);
      assertThat(t.fake.succeededCharges().keySet())
          .filteredOn(k -> BillingIds.isChangeChargeKey("sub-retry", k))
          .containsExactly(key);
      assertThat(events(t, HistoryEvent.PLAN_CHANGED)).hasSize(1);
      assertThat(t.existing("sub-retry").state().subscription().sku()).isEqualTo("PRO-MAX");
      // A repeat gets the first answer: Temporal replays this run's first result of the update id.
      SubscriptionState afterwards = changePlan(t, "sub-retry", upgrade("19.99", "upgrade-1"));
      assertThat(afterwards).isEqualTo(later);
      assertThat(events(t, HistoryEvent.PLAN_CHANGED)).hasSize(1);
    }
  }

  @Test
  void theSameRequestIdWithAnotherRequestIsRefused() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-reuse", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      SubscriptionState done = changePlan(t, "sub-reuse", upgrade("19.99", "key-1"));
      assertThat(done.request().status()).isEqualTo(Status.APPLIED);

      // Within the run (another update id) and after continue-as-new (the API's update id).
      assertRefused(
          () -> t.existing("sub-reuse").changePlan(upgrade("29.99", "key-1")),
          UpdateRejections.IDEMPOTENCY_KEY_REUSED,
          "request id key-1 was already used for a different request");
      t.runUntil("2028-02-16T00:00:00Z");
      assertRefused(
          () -> changePlan(t, "sub-reuse", upgrade("29.99", "key-1")),
          UpdateRejections.IDEMPOTENCY_KEY_REUSED,
          "request id key-1 was already used for a different request");
      assertRefused(
          () ->
              t.existing("sub-reuse")
                  .refundPeriod(new RefundRequest(1, usd("1.00"), null, null, "key-1")),
          UpdateRejections.IDEMPOTENCY_KEY_REUSED,
          "request id key-1 was already used for a different request");

      assertThat(upgradeCharges(t, "sub-reuse")).hasSize(1);
      assertThat(t.fake.refunds()).isEmpty();
      assertThat(t.existing("sub-reuse").state().subscription().price()).isEqualTo(usd("19.99"));
    }
  }

  @Test
  void anUpgradePaidByADebitStillSettlingWaitsForItsMoney() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-debit", "upgrade-d");
      t.fake.chargeModeForKey(key, ChargeMode.PENDING);
      t.start(BillingTestEnvironment.requested("sub-debit", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");

      SubscriptionState pending = changePlan(t, "sub-debit", upgrade("19.99", "upgrade-d"));

      assertThat(pending.request().status()).isEqualTo(Status.PENDING);
      assertThat(pending.subscription().sku()).isEqualTo(BillingTestEnvironment.SKU);
      assertThat(events(t, HistoryEvent.PLAN_CHANGED)).isEmpty();
      assertThat(events(t, HistoryEvent.PAYMENT_PENDING))
          .singleElement()
          .satisfies(r -> assertThat(r.detail()).contains("is still settling"));
    }
  }

  @Test
  void anUpgradeWithoutAnAnswerIsPendingThenAppliedOnceTheLookupFindsTheCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-found", "upgrade-2");
      t.fake.chargeModeForKey(key, ChargeMode.CHARGED_NO_ANSWER);
      t.fake.lookupsDown(true); // until the pending state has been looked at
      t.start(BillingTestEnvironment.requested("sub-found", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      Instant asked = t.now();

      SubscriptionState pending = changePlan(t, "sub-found", upgrade("19.99", "upgrade-2"));

      assertThat(pending.request().status()).isEqualTo(Status.PENDING);
      assertThat(pending.lastOutcome()).contains(key).contains("request upgrade-2");
      assertThat(pending.subscription().sku()).isEqualTo(BillingTestEnvironment.SKU);
      assertThat(events(t, HistoryEvent.PAYMENT_PENDING))
          .singleElement()
          .satisfies(r -> assertThat(r.detail()).contains(key));
      assertRefused(
          () -> t.existing("sub-found").changePlan(upgrade("29.99", "other")),
          UpdateRejections.TRANSITION_NOT_ALLOWED,
          "the change to PRO-MAX waits for the outcome of its charge ("
              + key
              + "); change the plan once it is known");

      t.fake.lookupsDown(false);
      t.runUntil("2028-01-20T13:00:00Z");

      // Asked after a durable wait (not at once), with the exact lookup from the request on.
      assertThat(t.fake.lookups().get(0).startedAt())
          .isAfterOrEqualTo(asked.plus(Duration.ofMinutes(1)));
      ChargeLookupInput lookup = t.fake.lookups().get(t.fake.lookups().size() - 1).input();
      assertThat(lookup.idempotencyKey()).isEqualTo(key);
      assertThat(lookup.sentFrom()).isBeforeOrEqualTo(asked);
      SubscriptionState now = t.existing("sub-found").state();
      assertThat(now.subscription().sku()).isEqualTo("PRO-MAX");
      RecordInput changed = events(t, HistoryEvent.PLAN_CHANGED).get(0);
      assertThat(changed.receipt().amount()).isEqualTo(usd("8.39"));
      assertThat(changed.receipt().transactionId()).isEqualTo("txn_sub-found_1_0");
      assertThat(upgradeCharges(t, "sub-found"))
          .extracting(ChargeInput::idempotencyKey)
          .containsOnly(key);
      assertThat(
              t.existing("sub-found").changePlan(upgrade("19.99", "upgrade-2")).request().status())
          .isEqualTo(Status.PENDING);
    }
  }

  @Test
  void anUpgradeWithoutAnAnswerIsDroppedWhenTheExactLookupFindsNoCharge() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      String key = BillingIds.changeChargeKey("sub-none", "upgrade-3");
      t.fake.chargeModeForKey(key, ChargeMode.UNAVAILABLE);
      t.start(BillingTestEnvironment.requested("sub-none", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");

      SubscriptionState pending = changePlan(t, "sub-none", upgrade("19.99", "upgrade-3"));
      assertThat(pending.request().status()).isEqualTo(Status.PENDING);
      t.runUntil("2028-01-20T10:05:00Z");

      assertThat(t.fake.lookups()).extracting(c -> c.input().idempotencyKey()).containsExactly(key);
      assertThat(t.existing("sub-none").state().subscription().sku())
          .isEqualTo(BillingTestEnvironment.SKU);
      assertThat(events(t, HistoryEvent.PLAN_CHANGED)).isEmpty();
      assertThat(events(t, HistoryEvent.PAYMENT_FAILED))
          .singleElement()
          .satisfies(
              r ->
                  assertThat(r.detail())
                      .isEqualTo(
                          "plan change to PRO-MAX dropped: its charge "
                              + key
                              + " was NOT_FOUND; the plan is unchanged"));
      assertThat(t.existing("sub-none").state().lastOutcome()).contains("dropped");
      SubscriptionState repeat = t.existing("sub-none").changePlan(upgrade("19.99", "upgrade-3"));
      assertThat(repeat.request().status()).isEqualTo(Status.PENDING);
      assertThat(repeat.subscription().sku()).isEqualTo(BillingTestEnvironment.SKU);
      assertThat(upgradeCharges(t, "sub-none"))
          .extracting(ChargeInput::idempotencyKey)
          .containsOnly(key);
      // A new request (a new id) may try again: a new key.
      SubscriptionState retried = changePlan(t, "sub-none", upgrade("19.99", "upgrade-4"));
      assertThat(retried.subscription().sku()).isEqualTo("PRO-MAX");
      assertThat(upgradeCharges(t, "sub-none"))
          .extracting(ChargeInput::idempotencyKey)
          .contains(BillingIds.changeChargeKey("sub-none", "upgrade-4"));
    }
  }

  @Test
  void aRefundTheGatewayReportsPendingIsRecordedAsPendingNotAsDone() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-rp", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      t.fake.refundsPending();

      refund(
          t, "sub-rp", new RefundRequest(1, usd("5.00"), "late delivery", "user:ops", "refund-p"));

      assertThat(events(t, HistoryEvent.PAYMENT_REFUNDED))
          .singleElement()
          .satisfies(r -> assertThat(r.detail()).endsWith("late delivery; pending at the gateway"));
    }
  }

  @Test
  void aRetriedRefundRefundsOnceAndARefundWithoutAnAnswerIsResolvedWithItsOwnKey() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      t.start(BillingTestEnvironment.requested("sub-rf", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T00:00:00Z");
      RefundRequest refund =
          new RefundRequest(1, usd("5.00"), "late delivery", "user:ops", "refund-1");

      refund(t, "sub-rf", refund);
      t.runUntil("2028-02-13T00:00:00Z"); // the reminder moved the version
      SubscriptionState again = t.existing("sub-rf").refundPeriod(refund); // another update id

      assertThat(again.request().status()).isEqualTo(Status.APPLIED);
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(BillingIds.refundKey("sub-rf", 1, "refund-1"));
      assertThat(t.fake.period("sub-rf", 1).refunded()).isEqualTo(usd("5.00"));

      t.fake.refundsUnanswered(1);
      SubscriptionState pending =
          refund(t, "sub-rf", new RefundRequest(1, usd("2.00"), null, "user:ops", "refund-2"));
      String key2 = BillingIds.refundKey("sub-rf", 1, "refund-2");
      assertThat(pending.request().status()).isEqualTo(Status.PENDING);
      assertThat(events(t, HistoryEvent.PAYMENT_PENDING))
          .singleElement()
          .satisfies(r -> assertThat(r.detail()).contains(key2));
      t.runUntil("2028-02-13T00:05:00Z");

      assertThat(t.fake.refundsMade())
          .containsOnlyKeys(BillingIds.refundKey("sub-rf", 1, "refund-1"), key2);
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().idempotencyKey())
          .filteredOn(key2::equals)
          .hasSizeGreaterThan(1); // sent again with the same key: replayed, not refunded twice
      Period period = t.fake.period("sub-rf", 1);
      assertThat(period.refunded()).isEqualTo(usd("7.00"));
      assertThat(events(t, HistoryEvent.PAYMENT_REFUNDED)).hasSize(2);
    }
  }

  @Test
  void anImmediateCancelRefundsTheUnusedShareOfAnUpgradeChargedInThePeriod() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-cu", ON_THE_15TH, "9.99"));
      t.runUntil("2028-01-20T10:00:00Z");
      changePlan(t, "sub-cu", upgrade("19.99", "upgrade-5")); // 8.39 for Jan 20 - Feb 14 (26 days)
      t.runUntil("2028-01-25T10:00:00Z");

      SubscriptionState cancelled =
          workflow.cancel(new CancelRequest(null, "user:ada", false, true, "cancel-1"));

      // Jan 26 - Feb 14 are unused: 20 of 31 days of 9.99 (6.44) and 20 of the upgrade's 26 of 8.39
      // (6.45).
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().transactionId(), c -> c.input().amount())
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("txn_sub-cu_1", usd("6.44")),
              org.assertj.core.groups.Tuple.tuple("txn_sub-cu_1_0", usd("6.45")));
      assertThat(t.fake.refunds())
          .extracting(c -> c.input().idempotencyKey())
          .containsExactly(
              BillingIds.refundKey("sub-cu", 1, "cancel-1"),
              BillingIds.refundKey("sub-cu", 1, "cancel-1#txn_sub-cu_1_0"));
      assertThat(t.fake.period("sub-cu", 1).refunded()).isEqualTo(usd("6.44"));
      assertThat(events(t, HistoryEvent.PAYMENT_REFUNDED))
          .extracting(RecordInput::detail)
          .anyMatch(
              d ->
                  d.startsWith(
                      "refunded 6.45 USD of the upgrade charge txn_sub-cu_1_0 in cycle 1"));
      assertThat(cancelled.subscription().status()).isEqualTo(SubscriptionStatus.CANCELLED);
    }
  }

  @Test
  void aCreditLeftAtCancellationIsRecordedNotDroppedSilently() {
    try (BillingTestEnvironment t = BillingTestEnvironment.startingAt("2028-01-01T00:00:00Z")) {
      SubscriptionWorkflow workflow =
          t.start(BillingTestEnvironment.requested("sub-cr", ON_THE_15TH, "30.00"));
      t.runUntil("2028-01-15T10:00:00Z");
      workflow.changePlan(
          new PlanChangeRequest("BASIC", usd("10.00"), Effective.NOW, null)); // 20.00 credit

      workflow.cancel(new CancelRequest("moving", "user:ada"));

      RecordInput cancelled = events(t, HistoryEvent.SUBSCRIPTION_CANCELLED).get(0);
      assertThat(cancelled.detail())
          .isEqualTo("moving; a credit of 20.00 USD was left unused; it is not refunded");
      assertThat(WorkflowStub.fromTyped(workflow).getResult(SubscriptionState.class).lastOutcome())
          .contains("a credit of 20.00 USD was left unused");
      assertThat(t.fake.refunds()).isEmpty();
    }
  }
}
