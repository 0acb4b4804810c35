package dev.billing.worker.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.billing.domain.Money;
import dev.billing.domain.PeriodStatus;
import dev.billing.domain.SubscriptionStatus;
import dev.billing.workflows.PlanChangeRequest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The judge's allowances for money the record names pending, on the paths that need them: the
 * gateway moves the money, loses the answer and then fails every retry. Between the step and the
 * workflow's timer the books differ by that money; the record names its key pending, so the check
 * holds, and minutes later the workflow records it.
 */
@Tag("model")
class PendingMoneyAllowanceTest {
  @Test
  void aRefundNamedPendingIsSetAsideUntilItsResendRecordsIt() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(
          new Money(12000, "USD"), 1, "UTC", "pm_card_visa", 0, 0, SubscriptionStatus.ACTIVE);
      model.advance(Duration.ofDays(3));
      model.check();
      model.stack.gateway.loseAnswerThenFail(6);
      model.update(
          "cancel sub-1 now refunding unused days",
          "sub-1",
          (sub, id) -> model.stack.updates.cancel(sub, id, false, true));
      model.check();
      assertEquals(
          1, stats.refundsSetAside(), "the refund was at the gateway and not yet in the records");

      model.advance(Duration.ofMinutes(10));
      model.check();
      assertEquals(
          1, stats.refundsSetAside(), "the re-send recorded the refund: nothing set aside");
      assertEquals(
          List.of(1L),
          model.cycles("sub-1", Set.of(PeriodStatus.REFUNDED)),
          "the refund is recorded");
    }
  }

  /**
   * A refund once pending and since recorded is the record's like any other: only a refund the
   * record still lacks is set aside, or a later pending refund of the same charge would take the
   * recorded one out of the gateway's side with it.
   */
  @Test
  void aRefundRecordedAfterItsResendIsNotSetAsideWithALaterPendingOne() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      Money cent = new Money(1, "USD");
      model.create(
          new Money(999, "USD"), 1, "UTC", "pm_card_visa", 0, 0, SubscriptionStatus.ACTIVE);
      model.advance(Duration.ofDays(3));
      model.check();
      model.stack.gateway.loseAnswerThenFail(6);
      model.update(
          "refund 0.01 USD of cycle 1 of sub-1",
          "sub-1",
          (sub, id) -> model.stack.updates.refund(sub, id, 1, cent));
      model.advance(Duration.ofMinutes(10));
      model.check();
      assertEquals(
          1, model.stack.sandbox.refunds().size(), "the first refund, made once and recorded");

      model.stack.gateway.loseAnswerThenFail(6);
      model.update(
          "refund 0.01 USD of cycle 1 of sub-1 again",
          "sub-1",
          (sub, id) -> model.stack.updates.refund(sub, id, 1, cent));
      model.check();
      assertEquals(
          2, model.stack.sandbox.refunds().size(), "the second refund made, its answer lost");
      assertEquals(1, stats.refundsSetAside(), "only the second refund is set aside");

      model.advance(Duration.ofMinutes(10));
      model.check();
      assertEquals(2, model.stack.sandbox.refunds().size(), "each refund made once");
    }
  }

  @Test
  void anUpgradeChargeNamedPendingIsSetAsideUntilItsLookUpRecordsIt() {
    ModelStats stats = new ModelStats();
    try (BillingModel model = new BillingModel(stats)) {
      model.create(
          new Money(999, "USD"), 1, "UTC", "pm_card_visa", 0, 0, SubscriptionStatus.ACTIVE);
      model.advance(Duration.ofDays(3));
      model.check();
      model.stack.gateway.loseAnswerThenFail(6);
      model.update(
          "plan 20.00 USD NOW for sub-1",
          "sub-1",
          (sub, id) ->
              model.stack.updates.changePlan(
                  sub, id, "plan-2000", new Money(2000, "USD"), PlanChangeRequest.Effective.NOW));
      model.check();
      assertEquals(
          1,
          stats.chargesSetAside(),
          "the upgrade's charge was at the gateway and not yet in the records");

      model.advance(Duration.ofMinutes(10));
      model.check();
      assertEquals(
          1,
          stats.chargesSetAside(),
          "the look-up applied the plan with its receipt: nothing set aside");
      assertEquals(
          2, model.stack.sandbox.charges().size(), "the period's charge and the upgrade's");
    }
  }
}
